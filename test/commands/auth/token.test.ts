import {join} from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import AuthToken from '../../../src/commands/auth/token.js'
import {fileStore} from '../../../src/core/auth/file-store.js'
import {runCommand} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'
import {lines} from '../../helpers/output.js'

const BASE = 'https://api.example.com'
const STORED = 'svc_stored_token_abcd1234'
let env: Record<string, string | undefined>

beforeEach(() => {
  env = {AMCTL_CONFIG_DIR: join(tempDir('amctl-tok-'), 'cfg'), AMCTL_BASE_URL: BASE}
})

describe('auth token', () => {
  it('prints the stored token alone on stdout (for $(amctl auth token))', async () => {
    fileStore.set(`default@${BASE}`, STORED, {AMCTL_CONFIG_DIR: env.AMCTL_CONFIG_DIR})
    const r = await runCommand(AuthToken, [], {env})
    expect(r).toMatchObject({exitCode: 0, stdout: `${STORED}\n`, stderr: ''})
    const json = await runCommand(AuthToken, ['--json'], {env})
    expect(JSON.parse(json.stdout)).toEqual({token: STORED, source: 'file'})
  })

  it('prints AMCTL_TOKEN when set', async () => {
    fileStore.set(`default@${BASE}`, STORED, {AMCTL_CONFIG_DIR: env.AMCTL_CONFIG_DIR})
    const r = await runCommand(AuthToken, [], {env: {...env, AMCTL_TOKEN: 'svc_from_env_9999'}})
    expect(r).toMatchObject({exitCode: 0, stdout: 'svc_from_env_9999\n'})
  })

  it('uses the token of the profile and server asked for', async () => {
    fileStore.set(`prod@${BASE}`, 'svc_prod_1111', {AMCTL_CONFIG_DIR: env.AMCTL_CONFIG_DIR})
    expect((await runCommand(AuthToken, ['--profile', 'prod'], {env})).stdout).toBe('svc_prod_1111\n')
    expect((await runCommand(AuthToken, [], {env})).exitCode).toBe(3)
    expect((await runCommand(AuthToken, ['--profile', 'prod', '--base-url', 'https://other.example'], {env})).exitCode).toBe(3)
  })

  it('exits 3 with the login hint when there is no token', async () => {
    const r = await runCommand(AuthToken, [], {env})
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toBe('')
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe(`error: not logged in to ${BASE} (unauthorized)`)
    expect(hint).toBe('hint: run `amctl auth login`')
    expect(rest).toEqual([])
    const json = await runCommand(AuthToken, ['--json'], {env})
    expect(json.exitCode).toBe(3)
    expect(JSON.parse(json.stdout)).toEqual({error: {code: 'unauthorized', message: `not logged in to ${BASE}`}})
  })
})

describe('auth token: typed result and renderer', () => {
  it('returns the token and where it came from; the renderer gets it as one line of text', async () => {
    fileStore.set(`default@${BASE}`, STORED, {AMCTL_CONFIG_DIR: env.AMCTL_CONFIG_DIR})
    const r = await runCommand(AuthToken, [], {env})
    expect(r.result).toEqual({token: STORED, source: 'file'})
    expect(r.rendered).toEqual([{method: 'text', value: STORED}])
  })
})
