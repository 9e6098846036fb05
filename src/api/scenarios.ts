import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {JsonObject, ScenarioBody} from './types.js'

/** `POST /orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios` */
export function createScenario(client: HttpClient, org: string, promptId: string, body: ScenarioBody): Promise<JsonObject> {
  return client.json({
    method: 'POST',
    path: apiPath`/orgs/${org}/visibility-prompts/${promptId}/scenarios`,
    body,
    resource: {kind: 'preference prompt', id: promptId},
  })
}
