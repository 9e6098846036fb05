import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import AuthLogout from '../../../src/commands/auth/logout.js'
import AuthToken from '../../../src/commands/auth/token.js'
import {fileStore} from '../../../src/core/auth/file-store.js'
import {runCommand} from '../../helpers/cli.js'
import {useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'

// no stubs: any request fails the test
const api = useFakeApi({}, {me: false})
let dir: string
let base: string

beforeEach(() => {
  dir = join(tempDir('amctl-logout-'), 'cfg')
  base = 'https://api.example.com'
})

describe('auth logout', () => {
  it('removes the stored token of the profile, keeps the others, and sends nothing', async () => {
    {
      base = api.url
      fileStore.set(`default@${base}`, 'svc_default_1111', {AMCTL_CONFIG_DIR: dir})
      fileStore.set(`prod@${base}`, 'svc_prod_2222', {AMCTL_CONFIG_DIR: dir})
      const env = {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: base}
      const r = await runCommand(AuthLogout, [], {env})
      expect(r.exitCode).toBe(0)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(`Logged out of ${base} (removed from file)\n`)
      expect(api.requests()).toHaveLength(0)
      expect(Object.keys(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')).tokens)).toEqual([`prod@${base}`])
      expect((await runCommand(AuthToken, [], {env})).exitCode).toBe(3)
      expect((await runCommand(AuthToken, ['--profile', 'prod'], {env})).stdout).toBe('svc_prod_2222\n')
    }
  })

  it('says so when there was nothing to remove (exit 0), and --json reports it', async () => {
    const env = {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: base}
    const r = await runCommand(AuthLogout, ['--profile', 'staging'], {env})
    expect(r).toMatchObject({exitCode: 0, stdout: ''})
    expect(r.stderr).toBe(`No stored token for ${base} (profile "staging")\n`)
    const json = await runCommand(AuthLogout, ['--json'], {env})
    expect(JSON.parse(json.stdout)).toEqual({baseUrl: base, profile: 'default', removed: []})
  })

  it('warns that AMCTL_TOKEN still applies', async () => {
    const r = await runCommand(AuthLogout, [], {env: {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: base, AMCTL_TOKEN: 'svc_env_3333'}})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('AMCTL_TOKEN is still set')
    expect(r.stdout + r.stderr).not.toContain('svc_env_3333')
  })
})

describe('auth logout: typed result and renderer', () => {
  it('returns what was removed; the renderer gets the notice and the warning', async () => {
    fileStore.set(`default@${base}`, 'svc_default_1111', {AMCTL_CONFIG_DIR: dir})
    const r = await runCommand(AuthLogout, [], {env: {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: base, AMCTL_TOKEN: 'svc_env_3333'}})
    expect(r.result).toEqual({baseUrl: base, profile: 'default', removed: ['file']})
    expect(r.rendered).toEqual([
      {method: 'notice', text: `Logged out of ${base} (removed from file)`},
      {method: 'warning', text: 'AMCTL_TOKEN is still set in the environment'},
    ])
  })
})
