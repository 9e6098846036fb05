import {Config} from '@oclif/core/config'
import type {LoadOptions} from '@oclif/core/interfaces'
import {HELP_TOPICS} from './topics.js'

/** What amctl draws help for, each named by its words ('runs', 'runs list', 'exit-codes'). */
export interface HelpSubjects {
  commands: string[]
  topics: string[]
  helpTopics: string[]
}

/**
 * The commands and topics of oclif's configuration (from the manifest and package.json:
 * whatever commands exist) and the help topics. The build draws the help of each once
 * (bin/launcher.cjs), so that the launcher prints it without loading the bundle.
 */
export function helpSubjects(config: Pick<Config, 'commands' | 'topics'>): HelpSubjects {
  const words = (id: string) => id.replaceAll(':', ' ')
  return {
    commands: config.commands.map((c) => words(c.id)).sort(),
    topics: config.topics.map((t) => words(t.name)).sort(),
    helpTopics: HELP_TOPICS.map((t) => t.name),
  }
}

/** helpSubjects of the configuration oclif loads with these options (what bin/run.cjs gives it). */
export async function loadHelpSubjects(options: LoadOptions): Promise<HelpSubjects> {
  return helpSubjects(await Config.load(options))
}
