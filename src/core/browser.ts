/**
 * Opens `url` in the user's browser ($BROWSER, else the platform's opener); failures are
 * ignored (the URL was printed). Only an absolute http: or https: URL is ever handed over — never
 * `file:`, `javascript:` or anything an opener could take for an option — and no shell is involved.
 */
export function isBrowsableUrl(url: string): boolean {
  if (url.startsWith('-')) return false
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:'
  } catch {
    return false
  }
}

/** The program and arguments that open `href` (spawned without a shell): $BROWSER, else the platform's opener. */
export function openerCommand(href: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): [string, ...string[]] {
  if (env.BROWSER) return [env.BROWSER, href]
  if (platform === 'darwin') return ['open', href]
  // the URL handler directly, with no cmd.exe to interpret & or ^ in the URL
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', href]
  return ['xdg-open', href]
}

export async function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!isBrowsableUrl(url)) return false
  const [command, ...args] = openerCommand(new URL(url).href, env, process.platform)
  try {
    const {spawn} = await import('node:child_process')
    const child = spawn(command, args, {env, detached: true, stdio: 'ignore', shell: false})
    child.on('error', () => {})
    child.unref()
    return true
  } catch {
    return false
  }
}
