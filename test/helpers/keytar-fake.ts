/**
 * A stand-in for the OS keychain (keytar is the OS boundary): in memory, refusing like a
 * missing Secret Service, or never answering like a hung D-Bus call. Used through vi.mock.
 */
export type KeytarMode = 'memory' | 'reject' | 'hang'

export interface FakeKeytar {
  mode: KeytarMode
  store: Map<string, string>
  calls: string[]
}

export function fakeKeytarModule(state: FakeKeytar) {
  const op =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): Promise<R> => {
      state.calls.push(name)
      if (state.mode === 'reject') return Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY\n  at native code'))
      if (state.mode === 'hang') return new Promise<R>(() => {})
      return Promise.resolve(fn(...args))
    }
  const api = {
    getPassword: op('get', (service: string, account: string) => state.store.get(`${service}/${account}`) ?? null),
    setPassword: op('set', (service: string, account: string, password: string) => {
      state.store.set(`${service}/${account}`, password)
    }),
    deletePassword: op('delete', (service: string, account: string) => state.store.delete(`${service}/${account}`)),
  }
  return {default: api, ...api}
}
