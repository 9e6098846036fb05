import {mkdirSync, writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {join} from 'node:path'
import {harness} from '../helpers/env.js'

/**
 * What the reliability suite measured, for the table of docs/reliability.md.
 *
 * Each test file owns one section and writes it to `<dir>/<section>.json` as soon as a figure is
 * known (files run in parallel, in separate processes, so they never share a file). A figure is
 * recorded before the assertions on it, so a failing run still shows what was measured.
 * `test/faults/report.mjs` merges the sections into a markdown table.
 *
 * The directory is `$FAULT_FIGURES_DIR`, else `<os tmpdir>/amctl-fault-figures`.
 * (Not an AMCTL_* variable: test/setup.ts removes those from every test process.)
 */

export function figuresDir(): string {
  return harness.faultFiguresDir ?? fileURLToPath(new URL('../../.faults/', import.meta.url))
}

export type Figure = number | string | boolean | null | Figure[] | {[key: string]: Figure}

export interface Section {
  section: string
  /** ISO time of the last update */
  updatedAt: string
  figures: Record<string, Figure>
}

/** The figures of one test file. */
export function figures(section: string): {
  set(key: string, value: Figure): void
  add(key: string, by?: number): void
  get(key: string): Figure | undefined
} {
  const dir = figuresDir()
  const file = join(dir, `${section}.json`)
  const data: Section = {section, updatedAt: new Date().toISOString(), figures: {}}
  const save = (): void => {
    data.updatedAt = new Date().toISOString()
    mkdirSync(dir, {recursive: true})
    writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
  }
  return {
    set(key, value) {
      data.figures[key] = value
      save()
    },
    add(key, by = 1) {
      const now = data.figures[key]
      data.figures[key] = (typeof now === 'number' ? now : 0) + by
      save()
    },
    get: (key) => data.figures[key],
  }
}
