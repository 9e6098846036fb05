#!/usr/bin/env node
// amctl entry point: as little as possible before oclif takes over.

const argv = process.argv.slice(2)

// `--version` is answered without loading oclif (the most frequent call from scripts).
if (argv.length === 1 && argv[0] === '--version') {
  const {readFileSync} = await import('node:fs')
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`amctl/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  // Ctrl-C: exit 130 without a stack trace, unless a command (dev server) handles it itself.
  const onSigint = () => {
    if (process.listenerCount('SIGINT') === 1) {
      process.stderr.write('\n')
      process.exit(130)
    }
  }
  process.on('SIGINT', onSigint)

  const {run, flush} = await import('@oclif/core')
  try {
    await run(argv, import.meta.url)
  } catch (error) {
    const {exitCodeOf} = await import('../dist/core/report.js')
    process.exitCode = await exitCodeOf(error, argv)
  } finally {
    await flush()
  }
}
