import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {conflict, invalid} from '../errors.js'
import {json} from '../reply.js'
import type {ScenarioRecord} from '../state.js'

/** Agent Preference area: repository/persona scenarios, owned by a preference prompt. */

export function registerScenarios(router: ApiRouter): void {
  router.operation('createScenario', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const prompt = ownedItem(store, 'visibilityPrompts', 'visibility prompt', ctx.params.visibilityPromptId, org)
    const {body} = ctx
    if (prompt.kind !== 'preference')
      throw invalid(`visibility prompt "${prompt.id}" is not a preference prompt; scenarios belong to preference prompts`)
    if (!org.repositories.includes(body.repository)) {
      throw invalid(`repository "${body.repository}" is not accessible to organization ${org.slug}`)
    }
    const persona = org.personas.find((candidate) => candidate.id === body.persona || candidate.name === body.persona)
    if (persona === undefined) throw invalid(`persona "${body.persona}" not found in organization ${org.slug}`)
    const duplicate = prompt.scenarioIds
      .map((id) => store.get('scenarios', id)?.item)
      .find((scenario) => scenario?.repository === body.repository && scenario.personaId === persona.id)
    if (duplicate !== undefined) throw conflict(`scenario "${duplicate.id}" already pairs ${body.repository} with ${persona.name}`)

    const scenario: ScenarioRecord = {
      id: store.newId('scn'),
      visibilityPromptId: prompt.id,
      repository: body.repository,
      persona: persona.name,
      personaId: persona.id,
      agents: [...prompt.agents],
      models: [...prompt.models],
      skillIds: [...prompt.skillIds],
      mcpServerIds: [...prompt.mcpServerIds],
      connectionIds: [...prompt.connectionIds],
      cadence: prompt.cadence,
      samplesPerTarget: prompt.samplesPerTarget,
      createdAt: new Date(ctx.services.now()).toISOString(),
    }
    store.state.scenarios[scenario.id] = {orgId: org.publicId, item: scenario}
    prompt.scenarioIds.push(scenario.id)
    return json(scenario)
  })
}
