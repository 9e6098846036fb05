import {spawn} from 'node:child_process'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {credentialsPath} from '../../../src/core/auth/file-store.js'
import {builtModule} from '../../helpers/bin.js'
import {tempDir} from '../../helpers/temp.js'
import {sealedEnv} from '../../helpers/env.js'

// src/core/auth/file-store.ts as built (dist/), in several processes at once.
const DIST_FILE_STORE = builtModule('core/auth/file-store.js')
const mode = (p: string) => statSync(p).mode & 0o777
const freshEnv = () => ({AMCTL_CONFIG_DIR: join(tempDir('amctl-creds-'), 'cfg')})

describe('fileStore across processes', () => {
  it('concurrent sets from several processes keep every account', async () => {
    const env = freshEnv()
    const PROCS = 6
    const EACH = 15
    const script = (n: number) => `
        import {fileStore} from ${JSON.stringify(DIST_FILE_STORE)}
        const env = {AMCTL_CONFIG_DIR: ${JSON.stringify(env.AMCTL_CONFIG_DIR)}}
        for (let i = 0; i < ${EACH}; i++) fileStore.set('p${n}-' + i + '@https://x.example', 'svc_${n}_' + i, env)
      `
    const runs = Array.from({length: PROCS}, (_, n) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script(n)], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: sealedEnv(),
      })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      return new Promise<{code: number | null; stderr: string}>((resolve) => child.on('close', (code) => resolve({code, stderr})))
    })
    const results = await Promise.all(runs)
    for (const r of results) expect(r, r.stderr).toMatchObject({code: 0})
    const shape = JSON.parse(readFileSync(credentialsPath(env), 'utf8'))
    expect(Object.keys(shape.tokens)).toHaveLength(PROCS * EACH)
    for (let n = 0; n < PROCS; n++) {
      for (let i = 0; i < EACH; i++) expect(shape.tokens[`p${n}-${i}@https://x.example`].token).toBe(`svc_${n}_${i}`)
    }
    expect(mode(credentialsPath(env))).toBe(0o600)
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })
})
