/**
 * What a command wrote, line by line (the last newline dropped): a test asserts on each line on
 * its own, so that no assertion pins more than one sentence of prose (test/prose.test.ts), and a
 * message said in several places is pinned by its owner's test while others check its shape.
 */
export const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n')

/** The hint amctl gives when the token of AMCTL_TOKEN is rejected: its words are src/base/context.ts's, pinned once, in test/base/api-command.test.ts. */
export const AMCTL_TOKEN_HINT = /^hint: the token in AMCTL_TOKEN was rejected\b/
