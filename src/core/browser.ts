/** Opens `url` in the user's browser ($BROWSER, else the platform's opener); failures are ignored. */
export async function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [command, ...args] = env.BROWSER
    ? [env.BROWSER, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url.replaceAll('&', '^&')]
        : ['xdg-open', url]
  try {
    const {spawn} = await import('node:child_process')
    const child = spawn(command, args, {detached: true, stdio: 'ignore'})
    child.on('error', () => {})
    child.unref()
  } catch {
    // no browser: the URL was printed
  }
}
