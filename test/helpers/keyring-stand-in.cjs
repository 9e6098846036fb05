'use strict'
// A stand-in for @napi-rs/keyring that the keychain helper process loads in tests
// (test/core/auth/keychain-helper.test.ts): entries in memory, in that process.
const store = new Map()
class AsyncEntry {
  constructor(service, account) {
    this.key = `${service}/${account}`
  }
  async getPassword() {
    return store.get(this.key) ?? null
  }
  async setPassword(password) {
    store.set(this.key, password)
  }
  async deletePassword() {
    return store.delete(this.key)
  }
}
module.exports = {AsyncEntry, store}
