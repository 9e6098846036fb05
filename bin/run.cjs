#!/usr/bin/env node
'use strict'
// amctl entry point: as little as possible before oclif takes over. CommonJS, because an ES
// module entry costs Node its ESM loader (~4 ms, a third of what `--version` may add to `node -e 0`).

const {readFileSync} = require('node:fs')
const {join} = require('node:path')

const argv = process.argv.slice(2)
const root = join(__dirname, '..')
// the completion scripts' question at every Tab (`amctl autocomplete script`): answered from the
// manifest and local files by dist/complete.cjs, without the CLI or the start-up machinery.
// `-v2`: today's scripts, which quote each candidate; without it, a script of an earlier version
// (saved to a file before an upgrade), which gets the plain candidates only. `-stdin`: the words
// one per line on stdin (PowerShell's).
const completeEntry = /^__complete(-v2)?(-stdin)?$/.exec(argv[0] ?? '')
const complete = completeEntry !== null
const launcher = complete ? undefined : require('./launcher.cjs')
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

// `--version` (and `version`, as gh has it: src/commands/version.ts prints the same) is answered
// without loading oclif (the most frequent call from scripts), and help without the bundle when
// the build drew it already (bin/launcher.cjs).
const version = argv.length === 1 && (argv[0] === '--version' || argv[0] === 'version')
const help = complete || version ? undefined : launcher.help(argv, root, pjson)
if (complete) {
  require('../dist/complete.cjs').main(completeEntry[2] ? undefined : argv.slice(1), root, pjson, completeEntry[1] !== undefined)
} else if (version) {
  // the first line stays what scripts parse; the commit and its date follow when the build knows them
  let built = ''
  try {
    const {commit, date} = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8'))
    built = `commit ${commit}, ${date}\n`
  } catch {
    // not built from a git checkout
  }
  launcher.writeStdout(`amctl/${pjson.version} ${process.platform}-${process.arch} node-${process.version}\n${built}`)
} else if (help?.text !== undefined) {
  launcher.writeStdout(help.text)
} else {
  // A reader of stdout that goes away (`amctl runs list --all | head -1`) ends amctl at once,
  // quietly, with exit 0, before any further request (contract 1.4). (Output to a pipe or a file
  // is written straight to it until it is long: process.stdout is made only if needed.) Any
  // other failure (a full disk, a terminal gone) is the command's: its next write, or its wait for
  // what it wrote, fails with one error line (src/output/io.ts); what no command saw, main() says.
  const stdoutMade = launcher.whenStdoutMade((stdout) =>
    stdout.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(0)
    }),
  )
  // Ctrl-C: exit 130 without a stack trace, unless a command (dev server, a wait) handles it
  // itself. The newline after the terminal's ^C is written at exit, after what erases a progress
  // line there (registered earlier), so that line is erased and not left above the newline.
  // SIGTERM (a CI system cancelling or timing out the job, `timeout`, Kubernetes) the same way with
  // 143 (128 + 15, what a shell reports for it), rather than Node's default of dying on the spot:
  // what erases a progress line runs, and no file is cut short (amctl's writes are synchronous).
  // The codes are src/core/signals.ts STOP_SIGNALS' (this file runs before the bundle is loaded).
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) {
        if (signal === 'SIGINT') process.once('exit', () => process.stderr.write('\n'))
        process.exit(code)
      }
    })
  }
  // npm checks "engines" at install; oclif's own check would load semver on every run
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const bundle = launcher.loadBundle(join(root, 'dist', 'amctl.cjs'), argv)
  const cli = bundle?.exports
  const main = async () => {
    try {
      await cli.run(argv, launcher.oclifOptions(root, pjson))
    } catch (error) {
      process.exitCode = await cli.reportFailure(error, argv, cli.systemWorld())
    } finally {
      // what was written has gone out, or the failure no command said is said now (exit 1)
      if (stdoutMade()) {
        await cli.stdoutWritten().catch(async (error) => {
          if (!process.exitCode) process.exitCode = await cli.reportFailure(error, argv, cli.systemWorld())
        })
      }
      // (a terminal's help, drawn by oclif: kept for the next run at this width)
      help?.record(process.exitCode ?? 0)
      bundle.save()
    }
  }
  if (bundle === undefined) launcher.notBuilt(root)
  else main()
}
