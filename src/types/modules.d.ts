// Types for modules that ship none.

// marked-man ships no types: a marked extension (options, renderer and tokenizer overrides)
declare module 'marked-man' {
  import type {MarkedExtension} from 'marked'
  const markedMan: MarkedExtension & Record<string, unknown>
  export default markedMan
}

// jstat ships no types: the one function amctl uses, Student's t quantile (the history gate's margin)
declare module 'jstat' {
  export const studentt: {inv(p: number, dof: number): number}
}
