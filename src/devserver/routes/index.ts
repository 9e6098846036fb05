import {ApiRouter} from '../context.js'
import {registerConnections} from './connections.js'
import {registerDevicePage} from './device-page.js'
import {registerEvalSets} from './eval-sets.js'
import {registerExperiments} from './experiments.js'
import {registerHooks} from './hooks.js'
import {registerIdentity} from './identity.js'
import {registerMcpServers} from './mcp-servers.js'
import {registerOpenApi} from './openapi.js'
import {registerOptimizations} from './optimizations.js'
import {registerOrganizations} from './organizations.js'
import {registerRetired} from './retired.js'
import {registerRuns} from './runs.js'
import {registerScenarios} from './scenarios.js'
import {registerTags} from './tags.js'

/** Every route the dev server answers. */
export function buildRouter(): ApiRouter {
  const router = new ApiRouter()
  for (const register of [
    registerOpenApi,
    registerIdentity,
    registerOrganizations,
    registerRuns,
    registerEvalSets,
    registerConnections,
    registerScenarios,
    registerExperiments,
    registerOptimizations,
    registerMcpServers,
    registerTags,
    registerRetired,
    registerDevicePage,
    registerHooks,
  ]) {
    register(router)
  }
  // a documented operation none of them answers: 501 naming it (a test cannot take it for a 404)
  return router.unimplemented()
}
