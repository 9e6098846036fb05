import {workflowEscape} from '../../output/sanitize.js'
import {flagDuration} from '../../output/time.js'
import {type GateResult, sampleOf, judgedItems, type GroupResult, type RunResult} from '../result.js'
import {changeText} from '../words.js'

/**
 * GitHub Actions workflow commands for a report (written on stderr: the runner reads workflow
 * commands there too, and stdout stays data): one `::error title=…::…` per run that did not
 * pass, and per run not finished when --wait-timeout ended the wait (the step fails on both);
 * one `::warning` per run or group judged against a stale group of a baseline file, per group
 * left inconclusive by --repeat auto (unless --fail-inconclusive failed it), and when the step
 * could not see --max-drop, and one per group whose level moved or that fails more, which
 * --update-baseline made the baseline (../update.ts).
 * Values are escaped as GitHub documents (src/output/sanitize.ts workflowEscape).
 */

/** `::error title=T::MESSAGE` with T and MESSAGE escaped. */
export function workflowCommand(command: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${command} title=${workflowEscape(title, 'property')}::${workflowEscape(message, 'data')}`
}

const target = (run: RunResult | GroupResult): string =>
  `${run.evalSetId ?? 'unknown eval set'} ${run.agent ?? '(no agent)'} / ${run.model ?? '(no model)'}`
const what = (item: RunResult | GroupResult): string =>
  'runIds' in item ? `group ${item.id} (${item.runIds.length} runs)` : `run ${item.id}`

/** The annotations of `report`, one line each. */
export function githubAnnotations(report: GateResult): string[] {
  const lines: string[] = []
  for (const item of judgedItems(report)) {
    const file = sampleOf(item.baseline)
    if (file?.kind === 'file' && file.stale) {
      const maxAge = flagDuration(report.rules.baselineFile?.maxAgeS ?? 0)
      lines.push(
        workflowCommand(
          'warning',
          `amctl: stale baseline for ${what(item)}`,
          `${target(item)}: the newest run of its group in ${file.path} was created ${file.newestRunAt ?? file.savedAt}, more than --baseline-max-age ${maxAge} ago; refresh the file (evals baseline save, or --update-baseline on the default branch)`,
        ),
      )
    }
    if (item.verdict === 'inconclusive' && item.outcome !== 'failed') {
      lines.push(workflowCommand('warning', `amctl: ${what(item)} inconclusive`, `${target(item)}: ${item.note ?? 'inconclusive'}`))
    }
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
  const {resolution} = report.rules
  if (resolution !== undefined) {
    const would = resolution.repeat === null ? `no --repeat up to ${resolution.upTo} would` : `--repeat ${resolution.repeat} would`
    lines.push(
      workflowCommand(
        'warning',
        'amctl: drops of --max-drop were out of sight',
        `this step could only see drops of ${resolution.detectable.toFixed(2)} or more; ${would} see ${resolution.maxDrop}`,
      ),
    )
  }
  for (const change of report.baselineUpdate?.changes ?? []) {
    const title = change.kind === 'level' ? 'a change of level' : 'a rise of failures'
    lines.push(workflowCommand('warning', `amctl: --update-baseline takes in ${title}`, changeText(change)))
  }
  return lines
}
