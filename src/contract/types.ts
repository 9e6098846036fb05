/**
 * The API's types. Every schema of the OpenAPI document (src/contract/openapi.json) is a type of
 * the same name here (`Run`, `Connection`, `RunPage`…): `npm run generate` writes them into
 * src/contract/openapi-types.ts with openapi-typescript (its `rootTypes`), and this module passes
 * them on, so a schema added to the document needs no alias by hand and nothing spells a member.
 * (The document's `Error` envelope is imported as `Error as ErrorEnvelope` where it is used: the
 * name would hide JavaScript's own.)
 */
export type * from './openapi-types.js'

/** A free-form JSON object (spec endpoint rule 1). */
export type JsonObject = {[key: string]: unknown}
