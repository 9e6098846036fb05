import type {Readable} from 'node:stream'

/** Reads a whole stream (stdin) as UTF-8. */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** Removes one trailing newline (`\n` or `\r\n`), as `@file` and `--message -` do. */
export function chompNewline(text: string): string {
  return text.replace(/\r?\n$/, '')
}
