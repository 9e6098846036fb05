'use strict'
// Build time: oclif.manifest.json made from the bundle, every help drawn once (dist/help/, printed
// by the launcher without the bundle), and dist/help-colour.cjs. bin/build.js runs writeManifest
// and renderHelp in a process of its own.

const {readFileSync, writeFileSync} = require('node:fs')
const {join} = require('node:path')
const {HELP_ARG, MAX_HELP_ARGV, helpPackage, oclifOptions} = require('../launcher.cjs')

/**
 * Writes root/oclif.manifest.json for the package at `root` (its package.json, and the bundle its
 * oclif config names), as `oclif manifest` makes it: @oclif/core's Plugin loads every command and
 * describes it. Fails when a command cannot be loaded.
 */
async function writeManifest(root) {
  const {Plugin} = require('@oclif/core')
  const plugin = new Plugin({
    root,
    type: 'core',
    isRoot: true,
    ignoreManifest: true,
    errorOnManifestCreate: true,
    respectNoCacheDefault: true,
  })
  await plugin.load()
  writeFileSync(join(root, 'oclif.manifest.json'), JSON.stringify(plugin.manifest, null, 2))
}

/**
 * Every help the launcher may print without the bundle (bin/launcher.cjs help()), drawn by oclif through
 * the bundle as bin/run.cjs has it drawn, stdout not a terminal: for the root ([], --help, -h,
 * help), each command, topic and help topic (`<words> --help`, `<words> -h`, `help <words>`),
 * and each topic that is not a command (`<words>`), the argvs oclif answers with help. An argv
 * whose run writes to stderr, fails or exits non-zero is left out (oclif runs it). Returns
 * {package, help: {argv joined by ' ': text}}, for dist/help/. Runs in a process of its own
 * (bin/build.js), with a clean environment.
 */
async function renderHelp(bundle, root) {
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  // (before oclif adds to it)
  const drawnFrom = helpPackage(pjson)
  const options = oclifOptions(root, pjson)
  const cli = require(bundle)
  const {commands, topics, helpTopics} = await cli.loadHelpSubjects(options)
  const forms = [[], ['--help'], ['-h'], ['help']]
  for (const subject of new Set([...commands, ...topics, ...helpTopics])) {
    const words = subject.split(' ')
    forms.push([...words, '--help'], [...words, '-h'])
    if (words[0] !== 'help') forms.push(['help', ...words])
    if (topics.includes(subject) && !commands.includes(subject)) forms.push(words)
  }
  const help = {}
  const {write: out} = process.stdout
  const {write: err} = process.stderr
  for (const form of forms) {
    // (an argv help() would never look up: a word it does not take)
    if (form.length > MAX_HELP_ARGV || !form.every((arg) => HELP_ARG.test(arg))) continue
    let stdout = ''
    let stderr = ''
    process.stdout.write = (chunk) => {
      stdout += chunk
      return true
    }
    process.stderr.write = (chunk) => {
      stderr += chunk
      return true
    }
    process.exitCode = undefined
    let failed = false
    try {
      await cli.run(form, options)
    } catch {
      failed = true
    } finally {
      process.stdout.write = out
      process.stderr.write = err
    }
    if (failed || stderr !== '' || (process.exitCode ?? 0) !== 0 || stdout === '') continue
    help[form.join(' ')] = stdout
  }
  process.exitCode = undefined
  await cli.stdoutWritten()
  return {package: drawnFrom, help}
}

/**
 * dist/help-colour.cjs: whether oclif colours help on this terminal, as its colorize() decides
 * (supports-color for stdout and stderr, then ansis), with the copies of both that the bundle's
 * @oclif/core has (bin/build.js resolves them from its directory).
 */
const HELP_COLOUR_SOURCE = `const supportsColor = require('supports-color')
const ansis = require('ansis')
exports.colour = () => (supportsColor.stdout && supportsColor.stderr && ansis.isSupported() ? 1 : 0)`

module.exports = {writeManifest, renderHelp, HELP_COLOUR_SOURCE}
