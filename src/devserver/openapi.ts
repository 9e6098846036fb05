import document from '../contract/openapi.json' with {type: 'json'}

/** The OpenAPI document (src/contract/openapi.json), the single description of the API. */
export const openapiDocument = document as typeof document & {paths: Record<string, Record<string, unknown>>}
