/**
 * A stand-in for the OS keychain (`@napi-rs/keyring` is the OS boundary): its AsyncEntry, in
 * memory, refusing like a missing Secret Service (a pinned entry's constructor throws then), or
 * never answering like a hung D-Bus call. Used through vi.mock('@napi-rs/keyring'). `stores`
 * records the Linux store each entry was pinned to.
 */
export type KeytarMode = 'memory' | 'reject' | 'hang'

export interface FakeKeytar {
  mode: KeytarMode
  store: Map<string, string>
  calls: string[]
  stores: (string | undefined)[]
}

const NO_SERVICE = 'Cannot autolaunch D-Bus without X11 $DISPLAY\n  at native code'

export function fakeKeyringModule(state: FakeKeytar) {
  const op = <R>(name: string, fn: () => R): Promise<R> => {
    state.calls.push(name)
    if (state.mode === 'reject') return Promise.reject(new Error(NO_SERVICE))
    if (state.mode === 'hang') return new Promise<R>(() => {})
    return Promise.resolve(fn())
  }
  class AsyncEntry {
    private readonly key: string
    constructor(service: string, account: string, options?: {linux?: {store?: string}}) {
      state.stores.push(options?.linux?.store)
      // a store that is required but not there: the constructor throws (no silent fallback)
      if (state.mode === 'reject' && options?.linux?.store !== undefined) throw new Error(NO_SERVICE)
      this.key = `${service}/${account}`
    }
    getPassword() {
      return op('get', () => state.store.get(this.key))
    }
    setPassword(password: string) {
      return op('set', () => {
        state.store.set(this.key, password)
      })
    }
    deletePassword() {
      return op('delete', () => state.store.delete(this.key))
    }
  }
  return {AsyncEntry}
}
