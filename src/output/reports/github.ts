import {workflowEscape} from '../sanitize.js'
import {flagDuration} from '../time.js'
import {type CiReport, judgedItems, type ReportGroup, type ReportRun} from './model.js'

/**
 * GitHub Actions workflow commands for a report (written on stderr: the runner reads workflow
 * commands there too, and stdout stays data): one `::error title=…::…` per run that did not
 * pass, and per run not finished when --wait-timeout ended the wait (the step fails on both).
 * Values are escaped as GitHub documents (src/output/sanitize.ts workflowEscape).
 */

/** `::error title=T::MESSAGE` with T and MESSAGE escaped. */
export function workflowCommand(command: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${command} title=${workflowEscape(title, 'property')}::${workflowEscape(message, 'data')}`
}

const target = (run: ReportRun | ReportGroup): string =>
  `${run.evalSetId ?? 'unknown eval set'} ${run.agent ?? '(no agent)'} / ${run.model ?? '(no model)'}`
const what = (item: ReportRun | ReportGroup): string =>
  'runIds' in item ? `group ${item.id} (${item.runIds.length} runs)` : `run ${item.id}`

/** The annotations of `report`, one line each. */
export function githubAnnotations(report: CiReport): string[] {
  const lines: string[] = []
  for (const item of judgedItems(report)) {
    if (item.outcome === 'failed') {
      lines.push(
        workflowCommand('error', `amctl: ${what(item)} did not pass`, `${target(item)}: ${item.failure?.reason ?? 'did not pass'}`),
      )
    } else if (item.outcome === 'skipped' && report.end === 'timeout') {
      const limit = flagDuration(report.rules.timeoutS, false)
      const status = 'runIds' in item ? item.statuses.map((s) => s ?? 'not found').join(', ') : (item.status ?? 'not found')
      const judged = report.cut === 'baselines' ? 'not judged' : 'not finished'
      lines.push(workflowCommand('error', `amctl: ${what(item)} ${judged}`, `${target(item)}: ${status} after --wait-timeout ${limit}`))
    }
  }
  return lines
}
