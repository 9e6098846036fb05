import type {Scenario, ScenarioBody} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

/** `POST /orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios` */
export function createScenario(client: HttpClient, org: string, visibilityPromptId: string, body: ScenarioBody): Promise<Scenario> {
  return call(client, 'createScenario', {org, visibilityPromptId}, {body, resource: {kind: 'preference prompt', id: visibilityPromptId}})
}
