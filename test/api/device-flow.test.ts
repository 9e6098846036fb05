import {errorText} from '../../src/output/present.js'
import {beforeEach, describe, expect, it} from 'vitest'
import {MAX_POLL_FAILURES, obtainToken, type DeviceFlowHooks} from '../../src/api/device-flow.js'
import {dropConnection, envelope, Reply, reply, fakeApiClient, unchecked, useFakeApi} from '../helpers/fake-api.js'
import {failure} from '../helpers/failure.js'

const DROP = Symbol('drop the connection')
const UNAVAILABLE = Symbol('answer 503')
const api = useFakeApi({}, {me: false})
// the client has a stored token: the login requests must still go without it
const client = fakeApiClient(api, 'svc_must_not_be_sent')
let clock: number
let sleeps: number[]
let prompts: [string, string][]
let opened: string[]

/** Answers of POST /cli/token in order: the start, then one per poll (the last one repeats); an `odd` one breaks the document. */
function answer(answers: unknown[]): void {
  let calls = 0
  api.stub('POST /cli/token', () => {
    const next = answers[Math.min(calls++, answers.length - 1)]
    if (next === DROP) throw dropConnection()
    if (next === UNAVAILABLE) return envelope(503, 'unavailable', 'try later')
    return next instanceof Reply ? next : reply(200, next)
  })
}

/** An answer of POST /cli/token the document does not allow: amctl must cope with it. */
const odd = (body: unknown): Reply => unchecked('a server that answers the device flow outside the document', 200, body)

beforeEach(() => {
  clock = 1_000_000
  sleeps = []
  prompts = []
  opened = []
})

const hooks: DeviceFlowHooks = {
  prompt: (code, url) => prompts.push([code, url]),
  openBrowser: (url) => opened.push(url),
  clock: {
    sleep: async (ms) => {
      sleeps.push(ms)
      clock += ms
    },
    now: () => clock,
  },
}

const START = {deviceCode: 'dc_secret_1', userCode: 'ABCD-EFGH', verificationUri: 'https://app.example/device', interval: 2, expiresIn: 60}

describe('obtainToken', () => {
  it('takes a token answered at once: one POST {} without Authorization', async () => {
    answer([{token: 'svc_immediate_1'}])
    expect(await obtainToken(client, hooks)).toBe('svc_immediate_1')
    expect(api.requests()).toHaveLength(1)
    const [req] = api.requests()
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v1/cli/token')
    expect(req.body).toBe('{}')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers.authorization).toBeUndefined()
    expect(prompts).toEqual([])
    expect(sleeps).toEqual([])
  })

  it('follows the device flow: shows the code, polls every interval until the token', async () => {
    answer([START, {status: 'pending'}, {status: 'pending'}, {token: 'svc_granted_1'}])
    expect(await obtainToken(client, hooks)).toBe('svc_granted_1')
    expect(prompts).toEqual([['ABCD-EFGH', 'https://app.example/device']])
    expect(opened).toEqual(['https://app.example/device'])
    expect(sleeps).toEqual([2000, 2000, 2000])
    expect(api.requests()).toHaveLength(4)
    for (const poll of api.requests().slice(1)) {
      expect(poll.method).toBe('POST')
      expect(poll.path).toBe('/api/v1/cli/token?deviceCode=dc_secret_1')
      expect(poll.body).toBe('{}')
      expect(poll.headers.authorization).toBeUndefined()
    }
  })

  it('encodes the device code in the query', async () => {
    answer([{...START, deviceCode: 'a&b=c d'}, {token: 'svc_ok'}])
    await obtainToken(client, hooks)
    expect(new URL(api.requests()[1].path, 'http://x').searchParams.get('deviceCode')).toBe('a&b=c d')
  })

  it('waits 5 s between polls when the server gives no interval', async () => {
    answer([{...START, interval: undefined}, {status: 'pending'}, {token: 'svc_ok'}])
    await obtainToken(client, hooks)
    expect(sleeps).toEqual([5000, 5000])
  })

  it.each([
    [0.001, 1000],
    [0, 1000],
    [-3, 1000],
    [0.5, 1000],
    [1.5, 1500],
    [60, 60_000],
    [600, 60_000],
    ['5', 5000],
  ])('an interval of %j s is taken as %i ms (absent → 5 s, outside 1–60 → the nearest bound)', async (interval, ms) => {
    answer([odd({...START, interval, expiresIn: 3600}), {status: 'pending'}, {status: 'pending'}, {token: 'svc_ok'}])
    await obtainToken(client, hooks)
    expect(sleeps).toEqual([ms, ms, ms])
  })

  it('keeps polling through a dropped connection or a 503 (a poll is safe to repeat)', async () => {
    answer([START, DROP, UNAVAILABLE, {status: 'pending'}, {token: 'svc_after_blips'}])
    await expect(obtainToken(client, hooks)).resolves.toBe('svc_after_blips')
    expect(api.requests()).toHaveLength(5)
  })

  it(`gives up with exit 1 after ${MAX_POLL_FAILURES} failed polls in a row`, async () => {
    answer([START, UNAVAILABLE])
    const e = await failure(obtainToken(client, hooks))
    expect(e.exitCode).toBe(1)
    expect(e.message, "the last failure's message, as the server said it").toBe('try later')
    expect(errorText(e)).toBe('polling for the login approval failed 5 times in a row: try later')
    expect(api.requests()).toHaveLength(1 + MAX_POLL_FAILURES)
  })

  it('a denied login is exit 3', async () => {
    answer([START, {status: 'pending'}, {status: 'denied'}])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({code: 'unauthorized', exitCode: 3})
    expect(e.message).toContain('denied')
    expect(api.requests()).toHaveLength(3)
  })

  it('an expired device code is exit 3', async () => {
    answer([START, {status: 'expired'}])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({exitCode: 3})
    expect(e.message).toContain('expired')
  })

  it('stops with exit 3 once expiresIn has passed, without polling again', async () => {
    answer([{...START, interval: 10, expiresIn: 25}, {status: 'pending'}])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({exitCode: 3})
    expect(e.message).toContain('expired')
    // polls at 10 s and 20 s; at 25 s the code has expired: given up then, not at the next poll
    expect(api.requests()).toHaveLength(3)
    expect(sleeps).toEqual([10_000, 10_000, 5_000])
  })

  it('gives up at expiresIn even when the interval is longer (a 60 s interval, a code valid 5 s)', async () => {
    answer([{...START, interval: 60, expiresIn: 5}, {status: 'pending'}])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({exitCode: 3, code: 'unauthorized'})
    expect(e.message).toBe('the device code expired before the login was approved; run `amctl auth login` again')
    expect(sleeps).toEqual([5_000])
    expect(api.requests()).toHaveLength(1)
  })

  it('slow_down never stretches a wait past expiresIn', async () => {
    answer([{...START, interval: 5, expiresIn: 12}, odd({status: 'slow_down'})])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({exitCode: 3})
    // polls at 5 s (slow down: 10 s between polls now); the code expires at 12 s
    expect(sleeps).toEqual([5_000, 7_000])
  })

  it('anything else at the start is exit 1 naming the members that came back', async () => {
    answer([odd({access_token: 'x', expires: 3})])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('"access_token"')
    expect(e.message).toContain('"expires"')
    expect(api.requests()).toHaveLength(1)
  })

  it('an empty object is exit 1 too', async () => {
    answer([odd({})])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('empty object')
  })

  it('an unknown answer while polling is exit 1 naming its members', async () => {
    answer([START, odd({state: 'weird'})])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('"state"')
  })

  it('a token that is not svc_… is exit 1, not stored', async () => {
    answer([odd({token: 'Bearer abc'})])
    const e = await failure(obtainToken(client, hooks))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).not.toContain('Bearer abc')
  })

  it('the device code never shows in an error', async () => {
    answer([START, odd({state: 'weird'})])
    const e = await failure(obtainToken(client, hooks))
    expect(e.message).not.toContain('dc_secret_1')
  })
})
