import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // every test gets a throwaway config dir; nothing touches the user's real config or keychain
    setupFiles: ['test/setup.ts'],
    // the build once, and a private temp root that must be empty at the end
    globalSetup: ['test/global-setup.ts'],
  },
})
