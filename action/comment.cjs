'use strict'
// The GitHub Action's comment on a pull request (action.yml, the evals step; docs/ci.md "The
// comment on the pull request"): one comment per eval set, found by a hidden marker on its first
// line and by its author, the identity posting now, and edited in place on every push, holding
// amctl's Markdown summary of the step. A comment with the marker by anyone else is never edited:
// anyone who may comment can write the marker (a "✅ all runs passed" on a failing pull request).
//
// Who runs it: the amctl executable the action has just installed and checked against SHA256SUMS,
// as a preload (NODE_OPTIONS=--require=<this file>). That executable is Node on every runner the
// action supports, self-hosted ones included, where neither `node`, `gh` nor `jq` need be
// installed (gh and jq are on GitHub's own runners only). This file runs to its end and exits, so
// amctl's own entry never starts. HTTP goes through curl, which the action needs already and which
// honours the runner's proxy variables (Node's fetch does not); the JSON is Node's.
//
// What it reads: GITHUB_EVENT_NAME and GITHUB_EVENT_PATH (the pull request), GITHUB_API_URL,
// GITHUB_GRAPHQL_URL, GITHUB_REPOSITORY, GITHUB_SERVER_URL, GITHUB_RUN_ID (the runner's), AMCTL_COMMENT_TOKEN (the
// token that posts), AMCTL_COMMENT_EVAL_SET, AMCTL_COMMENT_SUMMARY (the summary this step wrote,
// or empty), AMCTL_COMMENT_EXIT_CODE, AMCTL_COMMENT_VERDICT, AMCTL_COMMENT_ARTIFACT and
// AMCTL_COMMENT_ARTIFACT_URL (the name and the URL of the reports' artifact the step before
// uploaded, or empty).
//
// Every outcome is one line on stdout, and exit 0: the comment never changes the step's result.
// Posted or edited: a line saying so. Not possible (not a pull request, a fork's pull request, no
// token, a token that may not write: 401, 403, 404): a ::notice. Anything else (a server error,
// curl failing): a ::warning.
//
// Run with the word action-markdown (the evals step, when the update of the baseline file gave
// warnings), it does one thing else: the lines of AMCTL_MARKDOWN_TEXT, each as Markdown text
// (markdownText, below), on stdout, for the output baseline-warnings-markdown; exit 0, or 1 when
// they could not be written.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const {spawnSync} = require('node:child_process')

/** GitHub's limit on a comment's body is 65,536 characters: the summary is cut well before. */
const MAX_SUMMARY = 60_000
/** Pages of 100 comments read at most while looking for the marker. */
const MAX_PAGES = 100

/** A workflow command's message, escaped as GitHub documents (%, CR, LF), so it stays one command. */
function command(kind, message) {
  const text = String(message).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
  return `::${kind} title=amctl action::${text}`
}

/** One line on stdout, written at once (the process exits right after). */
function say(line) {
  fs.writeSync(1, `${line}\n`)
}

/** Text for a plain log line: control characters as spaces, so no value starts a line (a workflow command) of its own. */
function plain(text) {
  return [...String(text)].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? ' ' : c)).join('')
}

/**
 * Markdown text of a value given to the action (an eval set ID), or of server text amctl wrote
 * (the baseline's warnings): punctuation escaped, no HTML, no link and no mention. The `:` of `://`
 * is escaped (and every `.`, that of `www.` too): cmark-gfm makes a bare URL a link only at an
 * unescaped `:`, as markdownText of src/output/sanitize.ts has it. GitHub looks for `@login` and
 * `@org/team` in the rendered text, where `\@` is a plain `@` again, at the start of a text node or
 * after any character but an ASCII letter, digit or `_`: such an `@` is followed by U+2060 WORD
 * JOINER, which shows nothing and starts no login, as markdownText of src/output/sanitize.ts does
 * for amctl's summary (an email address stays as it is).
 */
function markdownText(text) {
  return plain(text)
    .replace(/(?<![A-Za-z0-9_])@/g, '@\u2060')
    .replace(/[\\`*_{}[\]()#+\-.!|~@$]|:(?=\/\/)/g, '\\$&')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
}

/** The hidden first line that finds this eval set's comment: the ID encoded, so no `--` or `>` in it. */
function markerOf(evalSet) {
  return `<!-- amctl:${encodeURIComponent(evalSet).replaceAll('-', '%2D')} -->`
}

class HttpError extends Error {
  constructor(method, url, status, detail) {
    super(`${method} ${url}: ${status === 0 ? detail : `HTTP ${status}`}`)
    this.status = status
  }
}

/**
 * curl's absolute path, from the PATH the step gave this process (the system's directories:
 * action/lib.sh). Spawned by its bare name, curl would be looked for in the working directory
 * first on Windows (libuv's search there), which is the workflow's checkout.
 */
function systemCurl() {
  const name = process.platform === 'win32' ? 'curl.exe' : 'curl'
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue
    const file = path.join(dir, name)
    try {
      if (!fs.statSync(file).isFile()) continue
      if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * One request through curl: the headers (the token among them) on curl's stdin, never in its
 * arguments, which other users of the machine can read; a body from a file. Returns the parsed
 * JSON answer of a 2xx; throws HttpError otherwise (status 0: no answer).
 */
function request(work, token, method, url, body) {
  const out = path.join(work, 'answer.json')
  fs.rmSync(out, {force: true})
  // -q first: no .curlrc of HOME takes part (one could copy every request, the token's header
  // included, to a file); the runner's proxy variables still do
  const args = ['-q', '--silent', '--show-error', '--proto-redir', '=https', '--max-time', '60', '--request', method]
  args.push('--header', '@-', '--output', out, '--write-out', '%{http_code}')
  if (method === 'GET') args.push('--retry', '2')
  if (body !== undefined) {
    const file = path.join(work, 'body.json')
    fs.writeFileSync(file, JSON.stringify(body))
    args.push('--data-binary', `@${file}`)
  }
  args.push('--url', url)
  const headers = [
    `Authorization: Bearer ${token}`,
    'Accept: application/vnd.github+json',
    'X-GitHub-Api-Version: 2022-11-28',
    'Content-Type: application/json',
    'User-Agent: amctl-action',
  ]
  const env = {...process.env}
  delete env.NODE_OPTIONS
  delete env.AMCTL_COMMENT_TOKEN
  delete env.AMCTL_TOKEN
  const curl = systemCurl()
  if (curl === undefined) throw new HttpError(method, url, 0, `no curl in ${process.env.PATH}`)
  const run = spawnSync(curl, args, {input: `${headers.join('\n')}\n`, encoding: 'utf8', env})
  if (run.error) throw new HttpError(method, url, 0, `curl did not run (${run.error.code ?? run.error.message})`)
  const status = Number(run.stdout)
  if (run.status !== 0 || !(status >= 200 && status < 300)) {
    throw new HttpError(method, url, status || 0, (run.stderr || `curl exited ${run.status}`).trim())
  }
  const text = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : ''
  try {
    return text === '' ? null : JSON.parse(text)
  } catch {
    throw new HttpError(method, url, 0, `HTTP ${status} with an answer that is not JSON`)
  }
}

/**
 * Who the token posts as: its account's ID, from GraphQL's `viewer`, which answers for every kind
 * of token: the job's GITHUB_TOKEN (an installation token of the GitHub Actions app) is the bot
 * github-actions[bot], a person's token (a PAT) that person, an app's installation token its bot.
 * REST has no such question for all of them: GET /user answers 403 to an installation token, and
 * GET /app wants the app's own key. The ID is what REST gives as a comment's `user.id`: no login
 * to spell (a bot's is `name[bot]` in REST, `name` as GraphQL's comment author) and none a rename
 * changes. Throws HttpError when the answer names no one.
 */
function postingAs(work, token, graphql) {
  const answer = request(work, token, 'POST', graphql, {query: 'query { viewer { login databaseId } }'})
  const id = answer?.data?.viewer?.databaseId
  if (!Number.isInteger(id) || id <= 0) {
    const why = Array.isArray(answer?.errors) ? `: ${answer.errors[0]?.message}` : ''
    throw new HttpError('POST', graphql, 0, `an answer that names no viewer${why}`)
  }
  return id
}

/** How an HttpError reads in a line: its HTTP status, or what happened instead. */
const statusOf = (error) => (error.status === 0 ? error.message : `HTTP ${error.status}`)

/** The comment's Markdown: the marker, the summary (or why there is none), where it comes from. */
function bodyOf(env, pr, evalSet) {
  let summary = env.AMCTL_COMMENT_SUMMARY ? fs.readFileSync(env.AMCTL_COMMENT_SUMMARY, 'utf8').trimEnd() : ''
  if (summary.length > MAX_SUMMARY) {
    summary = `${summary.slice(0, summary.lastIndexOf('\n', MAX_SUMMARY))}\n\n… (cut here: the whole summary is in the job summary)`
  }
  if (summary === '') {
    const code = String(env.AMCTL_COMMENT_EXIT_CODE ?? '')
    const verdict = markdownText(env.AMCTL_COMMENT_VERDICT ?? 'error')
    summary = `### ⚠️ amctl: no verdict for ${markdownText(evalSet)}\n\namctl exited ${markdownText(code)} (${verdict}) before judging any run: the job's log says why.`
  }
  const server = env.GITHUB_SERVER_URL || 'https://github.com'
  const run = /^\d+$/.test(env.GITHUB_RUN_ID ?? '')
    ? `[workflow run](${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID})`
    : ''
  const sha = /^[0-9a-f]{7,64}$/.test(pr.head?.sha ?? '') ? `commit ${pr.head.sha.slice(0, 7)}` : ''
  const footer = [`eval set ${markdownText(evalSet)}`, sha, run, 'this comment is edited on every push'].filter(Boolean).join(' · ')
  // the reports' artifact (the HTML report among them): the URL actions/upload-artifact gave
  // (a URL, nothing that could end the Markdown link), or no line
  const artifact = env.AMCTL_COMMENT_ARTIFACT ?? ''
  const url = env.AMCTL_COMMENT_ARTIFACT_URL ?? ''
  const reports =
    artifact !== '' && /^https?:\/\/[^\s()<>[\]]+$/.test(url)
      ? `\n\n📊 [This step's reports](${url}), the HTML report among them: artifact ${markdownText(artifact)} of the workflow run.`
      : ''
  return `${markerOf(evalSet)}\n${summary}${reports}\n\n<sub>${footer}</sub>\n`
}

function main(env) {
  const event = env.GITHUB_EVENT_NAME ?? ''
  let payload = {}
  try {
    payload = env.GITHUB_EVENT_PATH ? JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) : {}
  } catch (error) {
    return command('warning', `no comment: the event's payload (GITHUB_EVENT_PATH) could not be read: ${error.message}`)
  }
  const pr = payload?.pull_request
  if (!pr || !Number.isInteger(pr.number)) {
    return command('notice', `no comment: this run is not for a pull request (event ${event || 'unknown'})`)
  }
  // a pull_request run for a fork's pull request gets a read-only token (and no secrets)
  const from = pr.head?.repo?.full_name
  if (event === 'pull_request' && from !== pr.base?.repo?.full_name) {
    return command(
      'notice',
      `no comment on pull request #${pr.number}: it comes from a fork, whose runs get a read-only token (docs/ci-reference.md#pull-requests-from-forks)`,
    )
  }
  const token = env.AMCTL_COMMENT_TOKEN ?? ''
  if (token === '' || /\s/.test(token) || plain(token) !== token) {
    return command('notice', `no comment on pull request #${pr.number}: no usable GitHub token (the input github-token)`)
  }
  const repository = env.GITHUB_REPOSITORY ?? ''
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) return command('warning', `no comment: GITHUB_REPOSITORY is not OWNER/NAME`)
  const evalSet = env.AMCTL_COMMENT_EVAL_SET ?? ''
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  // (the runner sets it; else as GitHub places it: api.github.com/graphql, a server's /api/graphql)
  const graphql = env.GITHUB_GRAPHQL_URL || `${api.replace(/\/api\/v3$/, '/api')}/graphql`
  const comments = `${api}/repos/${repository}/issues/${pr.number}/comments`
  const marker = markerOf(evalSet)
  const body = bodyOf(env, pr, evalSet)
  const work = fs.mkdtempSync(path.join(env.RUNNER_TEMP || os.tmpdir(), 'amctl-comment-'))
  try {
    // the first comment with the marker whose author is the identity posting now (asked once, when
    // a comment with the marker is first seen); the others are someone else's, left alone. Who
    // posts unknown: none is ours, and a new comment is made rather than another's edited
    let ours
    let identity
    let unknown
    const others = []
    for (let page = 1; page <= MAX_PAGES && ours === undefined; page++) {
      const items = request(work, token, 'GET', `${comments}?per_page=100&page=${page}`)
      if (!Array.isArray(items)) throw new HttpError('GET', comments, 0, 'an answer that is not a list of comments')
      for (const item of items) {
        if (!(typeof item?.body === 'string' && item.body.startsWith(marker) && Number.isInteger(item.id))) continue
        if (identity === undefined && unknown === undefined) {
          try {
            identity = postingAs(work, token, graphql)
          } catch (error) {
            if (!(error instanceof HttpError)) throw error
            unknown = error
          }
        }
        if (identity !== undefined && item.user?.id === identity) {
          ours = item
          break
        }
        others.push(item)
      }
      if (items.length < 100) break
    }
    let note = ''
    if (unknown !== undefined) note = `; who posts could not be told (${statusOf(unknown)}): no earlier comment is edited`
    else if (others.length > 0) {
      const by = [...new Set(others.map((item) => String(item.user?.login ?? 'someone')))].join(', ')
      note = `; ${others.length === 1 ? 'a comment' : `${others.length} comments`} with its marker by ${by} left alone`
    }
    if (ours !== undefined) {
      try {
        request(work, token, 'PATCH', `${api}/repos/${repository}/issues/comments/${ours.id}`, {body})
        return plain(
          `amctl: edited the comment on pull request #${pr.number} for ${evalSet} (${ours.html_url ?? `comment ${ours.id}`})${note}`,
        )
      } catch (error) {
        // refused (the comment locked, hidden, gone, or no longer the token's to edit): a new one,
        // never none, so an earlier push's verdict is not left standing as this one's
        if (!(error instanceof HttpError) || error.status < 400 || error.status >= 500) throw error
        note = `; the earlier comment could not be edited (HTTP ${error.status})${note}`
      }
    }
    const created = request(work, token, 'POST', comments, {body})
    return plain(`amctl: commented on pull request #${pr.number} for ${evalSet} (${created?.html_url ?? 'created'})${note}`)
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    if ([401, 403, 404].includes(error.status)) {
      return command(
        'notice',
        `no comment on pull request #${pr.number}: the token may not write to it (HTTP ${error.status}); give the job \`permissions: pull-requests: write\``,
      )
    }
    return command('warning', `no comment on pull request #${pr.number}: ${error.message}`)
  } finally {
    fs.rmSync(work, {recursive: true, force: true})
  }
}

/** Each line of `text` as Markdown text (markdownText), in its place: the output baseline-warnings-markdown. */
function markdownLines(text) {
  return String(text).split('\n').map(markdownText).join('\n')
}

// the word the executable is run with (argv[2]: a single executable repeats its path as argv[1])
if (process.argv[2] === 'action-markdown') {
  try {
    say(markdownLines(process.env.AMCTL_MARKDOWN_TEXT ?? ''))
  } catch {
    process.exit(1)
  }
  process.exit(0)
}

let line
try {
  line = main(process.env)
} catch (error) {
  line = command('warning', `no comment: ${error?.message ?? error}`)
}
say(line)
process.exit(0)
