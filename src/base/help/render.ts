import type {Block, Topic} from './topics.js'

/** The help topics as text for a terminal, and as Markdown for docs/scripting.md and the man page. */

/** Words of `text` in lines of at most `width` columns (a longer word stands alone). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines
}

function blockText(block: Block, width: number): string {
  const indent = '  '
  switch (block.kind) {
    case 'text':
      return wrap(block.text, width - indent.length)
        .map((l) => indent + l)
        .join('\n')
    case 'list':
      return block.items
        .map((item) =>
          wrap(item, width - indent.length - 2)
            .map((l, i) => `${indent}${i === 0 ? '- ' : '  '}${l}`)
            .join('\n'),
        )
        .join('\n')
    case 'table': {
      // the first column aligned; the others joined and wrapped beside it
      const first = Math.max(...block.rows.map((r) => r[0].length), block.headers[0].length)
      const rest = width - indent.length - first - 2
      const row = (cells: string[]) => {
        const [head, ...tail] = cells
        const body = tail.filter((c) => c !== '').map((c, i) => (i === 0 ? c : `(${c})`))
        const lines = wrap(body.join(' '), Math.max(20, rest))
        return (lines.length === 0 ? [''] : lines)
          .map((l, i) => `${indent}${(i === 0 ? head : '').padEnd(first)}  ${l}`.trimEnd())
          .join('\n')
      }
      return [row(block.headers.map((h) => h.toUpperCase())), ...block.rows.map(row)].join('\n')
    }
  }
}

/** `amctl help <topic>`. */
export function topicText(topic: Topic, width = 80): string {
  return `${topic.title.toUpperCase()}\n  ${topic.summary}\n\n${topic.blocks.map((b) => blockText(b, width)).join('\n\n')}\n`
}

const cell = (text: string) => text.replaceAll('|', '\\|')

function blockMarkdown(block: Block): string {
  switch (block.kind) {
    case 'text':
      return block.text
    case 'list':
      return block.items.map((item) => `- ${item}`).join('\n')
    case 'table':
      return [
        `| ${block.headers.map(cell).join(' | ')} |`,
        `|${block.headers.map(() => '---').join('|')}|`,
        ...block.rows.map((r) => `| ${r.map((c, i) => (i === 0 && c !== '' ? `\`${c}\`` : cell(c))).join(' | ')} |`),
      ].join('\n')
  }
}

/** The topic's body as Markdown (no heading): the section of docs/ and the man page share it. */
export function topicMarkdown(topic: Topic): string {
  return `${topic.blocks.map(blockMarkdown).join('\n\n')}\n`
}
