/**
 * The environment of every test, built from an allow-list, never copied from the runner's.
 *
 * A test run inherits whatever the shell or the CI runner set: GITHUB_ACTIONS=true and
 * GITHUB_STEP_SUMMARY on every GitHub-hosted runner, CI, AMCTL_TOKEN, NO_COLOR, FORCE_COLOR, a
 * proxy. A command run in a test (test/helpers/cli.ts), the built CLI in a child process
 * (./bin.ts), a shell or a tool a test starts: each gets `sealedEnv()` (the names below that
 * the machine needs to run a program at all, with the run's private HOME and TMPDIR) plus what
 * the test sets, and nothing else. test/setup.ts also cuts the test process's own
 * `process.env` down to the same names, so that a library reading it sees no more.
 *
 * This module is the one place in test/ that reads `process.env` (test/sealed.test.ts holds the
 * tree to it), apart from the setup files that make the run's environment.
 */

/**
 * What a program needs from the machine to run: the search path, the run's private home and
 * temp root (test/global-setup.ts), and on Windows the system's own directories, without which
 * Node and the shells cannot start. Nothing that changes what amctl does.
 */
export const MACHINE_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'TMPDIR',
  // Windows (GitHub's windows runner runs the unit suite): the system directory, the shell, the
  // executable suffixes, the profile and temp directories
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]

/**
 * What a program that reaches the npm registry needs to trust this machine's network (a proxy
 * that re-signs TLS): only the tests that build a release, whose `npm install` fetches the
 * keychain module, pass them on (`registryTrust()`); every other program runs without them
 * (NODE_EXTRA_CA_CERTS alone adds about 30 ms to every Node process).
 */
export const TRUST_NAMES: readonly string[] = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR']

/**
 * What each test file's setup gives every command (test/setup.ts): a throwaway config and cache
 * directory, and the keychain off.
 */
export const FILE_NAMES: readonly string[] = ['AMCTL_CONFIG_DIR', 'AMCTL_CACHE_DIR', 'AMCTL_KEYCHAIN']

/**
 * The harness's own switches: they choose what the suites run against and how strictly, and are
 * read here once; none of them is handed to amctl or to any program a test starts.
 */
export const HARNESS_NAMES: readonly string[] = [
  'AMCTL_E2E_BIN',
  'AMCTL_RELEASE_DIR',
  'AMCTL_REQUIRE_KEYCHAIN',
  'AMCTL_TEST_BUILD',
  'AMCTL_TEST_REAL_HOME',
  'AMCTL_CHROMIUM',
  'AMCTL_SCREENSHOTS',
  'FAULT_FIGURES_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'CI',
]

// (read when this module loads: test/setup.ts loads it before it cuts process.env down)
const runner = process.env

const pick = (names: readonly string[]): Record<string, string> => {
  const picked: Record<string, string> = {}
  for (const name of names) {
    const value = runner[name]
    if (value !== undefined) picked[name] = value
  }
  return picked
}

const machine = pick(MACHINE_NAMES)
const trust = pick(TRUST_NAMES)
const fileSettings: Record<string, string> = {}

/** The harness's switches, as the run was started with them. */
export const harness = {
  /** an installed amctl to test instead of this checkout's bin/run.cjs (.ci/run) */
  e2eBin: runner.AMCTL_E2E_BIN || undefined,
  /** a release directory the action test uses instead of packing one */
  releaseDir: runner.AMCTL_RELEASE_DIR || undefined,
  /** a missing keychain is a failure, not a skip (.ci/run, inside a D-Bus session) */
  requireKeychain: runner.AMCTL_REQUIRE_KEYCHAIN === '1',
  /** 'skip': the global setup does not build (the build is there already) */
  testBuild: runner.AMCTL_TEST_BUILD,
  /** the developer's real home (test/global-setup.ts gives the run a private one) */
  realHome: runner.AMCTL_TEST_REAL_HOME,
  /** the Chromium the browser project drives (test/helpers/chromium.ts), instead of Debian's /usr/bin/chromium */
  chromium: runner.AMCTL_CHROMIUM || undefined,
  /** '1': the browser tests write their screenshots into docs/images/ (npm run screenshots); otherwise none is written */
  screenshots: runner.AMCTL_SCREENSHOTS === '1',
  /** where the fault suite writes its figures */
  faultFiguresDir: runner.FAULT_FIGURES_DIR || undefined,
  /** the D-Bus session of the keychain suites (.ci/run starts one with gnome-keyring) */
  dbusAddress: runner.DBUS_SESSION_BUS_ADDRESS,
  /** on CI a missing tool (shellcheck, zsh, fish, Chromium) fails its test instead of skipping it */
  ci: runner.CI !== undefined && runner.CI !== '' && runner.CI !== 'false',
} as const

/** The machine's TLS trust (TRUST_NAMES), for a program that reaches the npm registry. */
export const registryTrust = (): Record<string, string> => ({...trust})

/** The machine's PATH (the run's), for a test that puts a directory before it. */
export const machinePath = (): string => machine.PATH ?? ''

/** The run's private HOME (test/global-setup.ts). */
export const runHome = (): string => machine.HOME ?? ''

/** The file's config and cache directories and the keychain switch (test/setup.ts). */
export const fileSetting = (name: 'AMCTL_CONFIG_DIR' | 'AMCTL_CACHE_DIR' | 'AMCTL_KEYCHAIN'): string => fileSettings[name]

/** Called by test/setup.ts: the file's config and cache directories and the keychain switch. */
export function setFileSettings(settings: Record<string, string>): void {
  Object.assign(fileSettings, settings)
}

/**
 * A sealed environment: the machine's names above, the file's settings (with `settings: true`,
 * for a command in-process), then `changes` (undefined unsets a name).
 */
export function sealedEnv(
  changes: Record<string, string | undefined> = {},
  {settings = false}: {settings?: boolean} = {},
): Record<string, string> {
  const env: Record<string, string> = {...machine, ...(settings ? fileSettings : {})}
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

/**
 * Gives the test process the run's D-Bus session again (sealProcessEnv took it away with the
 * rest): the keychain suites' probe and their reads of the stored entry talk to the Secret
 * Service from this process, through @napi-rs/keyring, which finds the bus in the process's
 * environment. Nothing else in the run needs it; without a session this does nothing.
 */
export function joinKeychainSession(): void {
  if (harness.dbusAddress !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = harness.dbusAddress
}

/** Cuts the test process's own environment down to the sealed one (test/setup.ts, before every file). */
export function sealProcessEnv(): void {
  const keep = new Set([...MACHINE_NAMES, ...FILE_NAMES])
  // (TRUST_NAMES go too: the test process reaches no network, and registryTrust() kept them)
  for (const key of Object.keys(process.env)) {
    // vitest's own (VITEST, VITEST_WORKER_ID …): set by the runner for its workers, not by the machine
    if (!keep.has(key) && !key.startsWith('VITEST')) delete process.env[key]
  }
}
