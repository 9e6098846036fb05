import {marked} from 'marked'
import markedMan from 'marked-man'
import {manMarkdown, type ManifestLike} from './man.js'
import {topicMarkdown} from './render.js'
import {HELP_TOPICS} from './topics.js'

/**
 * The documents generated from the code, for `npm run docs` (bin/docs.js) and the freshness
 * tests: the README's help-topic sections (between `<!-- help:NAME -->` and `<!-- help:end -->`)
 * and the man page man/amctl.1. Not part of the CLI's bundle.
 */

/** The README with every help-topic section rewritten from src/base/help/topics.ts. */
export function readmeWithTopics(readme: string): string {
  let out = readme
  for (const topic of HELP_TOPICS) {
    const open = `<!-- help:${topic.name} -->`
    const start = out.indexOf(open)
    const end = out.indexOf('<!-- help:end -->', start)
    if (start === -1 || end === -1) throw new Error(`README.md has no ${open} … <!-- help:end --> section`)
    out = `${out.slice(0, start + open.length)}\n${topicMarkdown(topic)}${out.slice(end)}`
  }
  return out
}

/** The man page amctl(1) in roff; `date` (YYYY-MM-DD) goes in its header. */
export function manPage(manifest: ManifestLike, date: string): string {
  const md = marked.use({...markedMan, date, name: 'amctl', section: '1', manual: 'amctl manual', manVersion: manifest.version} as never)
  return md.parse(manMarkdown(manifest), {async: false}) as string
}
