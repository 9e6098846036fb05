// a JSON document walked by hand
type Json = any

/** Follows `$ref` pointers (`#/components/…`) within `doc` until a node that is not one. */
export function resolveRef(doc: Json, node: Json): Json {
  if (node?.$ref === undefined) return node
  return resolveRef(
    doc,
    node.$ref
      .slice(2)
      .split('/')
      .reduce((into: Json, part: string) => into?.[part], doc),
  )
}
