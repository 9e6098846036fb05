import {workflowEscape} from '../sanitize.js'
import {flagDuration} from '../time.js'
import type {CiReport, ReportRun} from './model.js'

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

const target = (run: ReportRun): string =>
  `${run.evalSetId ?? 'unknown eval set'} ${run.agent ?? '(no agent)'} / ${run.model ?? '(no model)'}`

/** The annotations of `report`, one line each. */
export function githubAnnotations(report: CiReport): string[] {
  const lines: string[] = []
  for (const run of report.runs) {
    if (run.outcome === 'failed') {
      lines.push(workflowCommand('error', `amctl: run ${run.id} did not pass`, `${target(run)}: ${run.failure?.reason ?? 'did not pass'}`))
    } else if (run.outcome === 'skipped' && report.end === 'timeout') {
      const limit = flagDuration(report.rules.timeoutS, false)
      lines.push(
        workflowCommand(
          'error',
          `amctl: run ${run.id} not finished`,
          `${target(run)}: ${run.status ?? 'not found'} after --wait-timeout ${limit}`,
        ),
      )
    }
  }
  return lines
}
