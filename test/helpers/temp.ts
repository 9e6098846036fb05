import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/**
 * Temporary directories for tests. Each one is removed when its test file ends (test/setup.ts
 * calls `removeTempDirs` in afterAll), and every run has a private temp root (TMPDIR, set by
 * test/global-setup.ts) that must be empty at the end: a test that leaves anything fails the run.
 */
const made = new Set<string>()

export function tempDir(prefix = 'amctl-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  made.add(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, {recursive: true, force: true})
  made.clear()
}
