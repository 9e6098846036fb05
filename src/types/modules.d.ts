// Types for modules that ship none.

// marked-man ships no types: a marked extension (options, renderer and tokenizer overrides)
declare module 'marked-man' {
  import type {MarkedExtension} from 'marked'
  const markedMan: MarkedExtension & Record<string, unknown>
  export default markedMan
}

// jstat ships no types: the functions amctl uses, Student's t quantile (the history gate's margin),
// the normal quantile and the binomial distribution (the verdicts of evals stats), and the normal
// and chi-square distributions (the baseline file's tolerance bound)
declare module 'jstat' {
  export const studentt: {inv(p: number, dof: number): number}
  export const normal: {inv(p: number, mean: number, sd: number): number}
  export const binomial: {cdf(k: number, n: number, p: number): number}
  export const jStat: {
    normal: {cdf(x: number, mean: number, sd: number): number; inv(p: number, mean: number, sd: number): number}
    chisquare: {inv(p: number, dof: number): number}
  }
}
