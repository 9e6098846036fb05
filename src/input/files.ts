import {constants, createReadStream, openSync} from 'node:fs'
import {stat} from 'node:fs/promises'
import type {Stats} from 'node:fs'
import type {Readable} from 'node:stream'
import {UsageError} from '../core/errors.js'

/**
 * Reading what the user points at: `@file`, `--input FILE|-`, `--message -` (contract 3).
 * Regular files, pipes and FIFOs (so `--input <(jq …)` works), at most 64 MiB. A device
 * (`/dev/zero`), a directory or a socket is refused at once (exit 2). Nothing blocks: a FIFO is
 * opened non-blocking and read through the event loop, so Ctrl-C still ends a read that waits for
 * its writer (a blocking open would park a libuv worker thread, and Node's exit waits for it).
 */

export const MAX_INPUT_BYTES = 64 * 1024 * 1024

function tooBig(label: string, what: string): UsageError {
  return new UsageError(`${label}: ${what} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`)
}

/** Reads a stream to its end as UTF-8, refusing more than MAX_INPUT_BYTES. */
export async function readStream(stream: Readable, label: string, what: string): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buf.length
    if (size > MAX_INPUT_BYTES) {
      stream.destroy()
      throw tooBig(label, what)
    }
    chunks.push(buf)
  }
  return Buffer.concat(chunks, size).toString('utf8')
}

/** The text of `source`: a file's path, or `-` for stdin. `label` names the flag in errors. */
export async function readText(source: string, stdin: Readable, label: string): Promise<string> {
  if (source === '-') return readStream(stdin, label, 'standard input')
  const cannot = (why: string) => new UsageError(`${label}: cannot read "${source}" (${why})`)
  let info: Stats
  try {
    info = await stat(source)
  } catch (error) {
    throw cannot(describeErrno(error))
  }
  if (info.isDirectory()) throw cannot('it is a directory')
  if (info.isCharacterDevice() || info.isBlockDevice()) throw cannot('it is a device, not a file or a pipe')
  if (info.isSocket()) throw cannot('it is a socket')
  if (info.isFile() && info.size > MAX_INPUT_BYTES) throw tooBig(label, `"${source}"`)
  try {
    return await readStream(info.isFIFO() ? await fifoStream(source) : createReadStream(source), label, `"${source}"`)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw cannot(describeErrno(error))
  }
}

/**
 * A FIFO (or a `<(…)` pipe) as a stream of the event loop: opened O_NONBLOCK (which returns at
 * once even before a writer comes) and watched by libuv, which sees data, then the writer's end.
 */
async function fifoStream(path: string): Promise<Readable> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  const {Socket} = await import('node:net')
  return new Socket({fd, readable: true, writable: false})
}

/** Removes one trailing newline (`\n` or `\r\n`), as `@file` and `--message -` do. */
export function chompNewline(text: string): string {
  return text.replace(/\r?\n$/, '')
}

function describeErrno(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  switch (code) {
    case 'ENOENT':
      return 'no such file'
    case 'EACCES':
    case 'EPERM':
      return `permission denied, ${code}`
    case 'EISDIR':
      return 'it is a directory'
    case 'ENOTDIR':
      return 'a part of the path is not a directory'
    default:
      return code ?? (error as Error).message
  }
}
