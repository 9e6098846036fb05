/** A word as a POSIX shell reads it back: as is when plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/** A command line to paste: `amctl runs list --cursor 'a b'`. */
export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ')
}
