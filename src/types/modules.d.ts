// Types for modules that ship none.

// marked-man ships no types: a marked extension (options, renderer and tokenizer overrides)
declare module 'marked-man' {
  import type {MarkedExtension} from 'marked'
  const markedMan: MarkedExtension & Record<string, unknown>
  export default markedMan
}
