import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ORGS, USERS} from '../../src/devserver/seed.js'
import {expectError, startTestServer, type TestServer} from './helpers.js'

let auto: TestServer
let manual: TestServer
/** manual approval and device codes that live 0.3 s of its own clock, which the tests move */
let shortLived: TestServer
let shortLivedNow = Date.parse('2026-06-01T09:00:00Z')
beforeAll(async () => {
  auto = await startTestServer()
  manual = await startTestServer({approve: 'manual', deviceInterval: 0.05})
  shortLived = await startTestServer({approve: 'manual', deviceExpiresIn: 0.3, now: () => shortLivedNow})
})
afterAll(async () => {
  await Promise.all([auto.close(), manual.close(), shortLived.close()])
})

describe('POST /tokens', () => {
  it('creates a token shown once that works at once, as the same user', async () => {
    const grace = await auto.token(USERS.grace.email)
    const answer = await auto.api('POST', '/tokens', {token: grace, body: {name: 'ci', expiresIn: '30d'}})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({name: 'ci', token: expect.stringMatching(/^svc_[\w-]{40,}$/)})
    const days = (Date.parse(answer.body.expiresAt) - Date.parse(answer.body.createdAt)) / 86_400_000
    expect(Math.round(days)).toBe(30)
    const me = await auto.api('GET', '/me', {token: answer.body.token})
    expect(me.body.email).toBe(USERS.grace.email)
    expect((await auto.api('POST', '/tokens', {token: grace, body: {name: 'long', expiresIn: '3650d'}})).status).toBe(200)
  })

  it.each([
    [{expiresIn: '30d'}, 'name'],
    [{name: '', expiresIn: '30d'}, 'name'],
    [{name: 5, expiresIn: '30d'}, 'name'],
    [{name: 'x'}, 'expiresIn'],
    [{name: 'x', expiresIn: '0d'}, 'expiresIn'],
    [{name: 'x', expiresIn: '3651d'}, 'expiresIn'],
    [{name: 'x', expiresIn: '30'}, 'expiresIn'],
    [{name: 'x', expiresIn: '2w'}, 'expiresIn'],
    [{name: 'x', expiresIn: 30}, 'expiresIn'],
  ])('refuses %j with 400 naming %s', async (body, member) => {
    const token = await auto.token()
    expect(expectError(await auto.api('POST', '/tokens', {token, body}), 400, 'invalid_request')).toContain(member)
  })
})

describe('POST /cli/token with --approve auto', () => {
  it('starts a device flow, and the first poll answers a token for ada, once', async () => {
    const start = await auto.api('POST', '/cli/token', {body: {}})
    expect(start.status).toBe(200)
    expect(start.body).toMatchObject({
      deviceCode: expect.any(String),
      userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
      verificationUri: `${auto.url}/device`,
      interval: 1,
      expiresIn: 600,
    })
    const poll = (code: string) => auto.api('POST', `/cli/token?deviceCode=${encodeURIComponent(code)}`, {body: {}})
    const granted = await poll(start.body.deviceCode)
    expect(granted.body.token).toMatch(/^svc_/)
    const me = await auto.api('GET', '/me', {token: granted.body.token})
    expect(me.body).toMatchObject({email: USERS.ada.email, orgs: [ORGS.acme, ORGS.globex]})
    expectError(await poll(start.body.deviceCode), 400, 'invalid_request')
    expectError(await poll('never-issued'), 400, 'invalid_request')
  })

  it('refuses a body that is not an object', async () => {
    expectError(await auto.api('POST', '/cli/token', {raw: '[]'}), 400, 'invalid_request')
  })
})

describe('POST /cli/token with --approve manual', () => {
  const start = async () => (await manual.api('POST', '/cli/token', {body: {}})).body
  const poll = async (code: string) => (await manual.api('POST', `/cli/token?deviceCode=${code}`, {body: {}})).body

  it("stays pending until approved through the hook, then answers the chosen user's token", async () => {
    const flow = await start()
    expect(flow.interval).toBe(0.05)
    expect(await poll(flow.deviceCode)).toEqual({status: 'pending'})
    expect(await poll(flow.deviceCode)).toEqual({status: 'pending'})
    const approved = await manual.call('POST', '/_dev/device/approve', {
      body: {userCode: flow.userCode.toLowerCase(), email: USERS.grace.email},
    })
    expect(approved.status).toBe(200)
    expect(expectError(await manual.call('POST', '/_dev/device/approve', {body: {userCode: flow.userCode}}), 409, 'conflict')).toContain(
      'approved',
    )
    const granted = await poll(flow.deviceCode)
    expect((await manual.api('GET', '/me', {token: granted.token})).body.email).toBe(USERS.grace.email)
    // the device code is used up: the user code is gone too
    expectError(await manual.call('POST', '/_dev/device/approve', {body: {userCode: flow.userCode}}), 404, 'not_found')
    expectError(await manual.api('POST', `/cli/token?deviceCode=${flow.deviceCode}`, {body: {}}), 400, 'invalid_request')
  })

  it('answers denied after a denial', async () => {
    const flow = await start()
    await manual.call('POST', '/_dev/device/deny', {body: {userCode: flow.userCode}})
    expect(await poll(flow.deviceCode)).toEqual({status: 'denied'})
    expect(await poll(flow.deviceCode)).toEqual({status: 'denied'})
  })

  it('answers expired once the code has lived its time, and approving it then fails', async () => {
    const flow = (await shortLived.api('POST', '/cli/token', {body: {}})).body
    expect(flow.expiresIn).toBe(0.3)
    shortLivedNow += 299
    expect((await shortLived.api('POST', `/cli/token?deviceCode=${flow.deviceCode}`, {body: {}})).body).toEqual({status: 'pending'})
    shortLivedNow += 1
    expect((await shortLived.api('POST', `/cli/token?deviceCode=${flow.deviceCode}`, {body: {}})).body).toEqual({status: 'expired'})
    expectError(await shortLived.call('POST', '/_dev/device/approve', {body: {userCode: flow.userCode}}), 400, 'invalid_request')
    expectError(await shortLived.call('POST', '/_dev/device/approve', {body: {userCode: 'ZZZZ-ZZZZ'}}), 404, 'not_found')
  })

  it('serves the device page, which approves as the chosen user', async () => {
    const flow = await start()
    const page = await manual.call('GET', `/device?userCode=${flow.userCode}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.text).toContain(flow.userCode)
    expect(page.text).toContain('is waiting for approval')
    expect(page.text).toContain(USERS.ada.email)
    const form = new URLSearchParams({userCode: flow.userCode, email: USERS.ada.email, decision: 'approve'}).toString()
    const cross = await manual.call('POST', '/device', {
      raw: form,
      headers: {'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example'},
    })
    expect(cross.status).toBe(403)
    expect(await poll(flow.deviceCode)).toEqual({status: 'pending'})
    const done = await manual.call('POST', '/device', {
      raw: form,
      headers: {'content-type': 'application/x-www-form-urlencoded', origin: manual.url},
    })
    expect(done.status).toBe(200)
    expect(done.text).toContain('Approved')
    expect((await poll(flow.deviceCode)).token).toMatch(/^svc_/)
  })

  it('denies through the device page, and escapes what it echoes', async () => {
    const flow = await start()
    const form = new URLSearchParams({userCode: flow.userCode, decision: 'deny'}).toString()
    const done = await manual.call('POST', '/device', {raw: form, headers: {'content-type': 'application/x-www-form-urlencoded'}})
    expect(done.text).toContain('Denied')
    expect(await poll(flow.deviceCode)).toEqual({status: 'denied'})
    const hostile = await manual.call('GET', `/device?userCode=${encodeURIComponent('<script>x</script>')}`)
    expect(hostile.text).not.toContain('<script>x')
  })
})
