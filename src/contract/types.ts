/**
 * The API's types, by the names the code uses. All of them come from the OpenAPI document
 * (src/contract/openapi.json) through src/contract/openapi-types.ts, which `npm run generate`
 * writes with openapi-typescript; nothing here spells a member by hand.
 */
import type {components} from './openapi-types.js'

type Schemas = components['schemas']

export type ErrorEnvelope = Schemas['Error']
export type OrgRef = Schemas['OrgRef']
export type Me = Schemas['Me']
export type Run = Schemas['Run']
export type Connection = Schemas['Connection']
export type EvalSet = Schemas['EvalSet']
export type EvalSetPatch = Schemas['EvalSetPatch']
export type LaunchResult = Schemas['LaunchResult']
export type CreateTokenBody = Schemas['CreateTokenBody']
export type CreatedToken = Schemas['CreatedToken']
export type CliTokenDeviceStart = Schemas['CliTokenDeviceStart']
export type CliTokenGranted = Schemas['CliTokenGranted']
export type CliTokenPoll = Schemas['CliTokenPoll']
export type ScenarioBody = Schemas['ScenarioBody']
export type Scenario = Schemas['Scenario']
export type ChatBody = Schemas['ChatBody']
export type ImplementationDoc = Schemas['ImplementationDoc']

/** A free-form JSON object (spec endpoint rule 1). */
export type JsonObject = {[key: string]: unknown}
