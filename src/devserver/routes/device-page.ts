import type {ApiRouter, RequestContext} from '../context.js'
import {ApiError, forbidden, invalid, notFound} from '../errors.js'
import {html, type Reply} from '../reply.js'

/**
 * `verificationUri` of the device flow: a tiny page where a person approves or denies a user
 * code as one of the seeded users (manual `--approve`). Not part of the API.
 */

export function registerDevicePage(router: ApiRouter): void {
  router.open('GET', '/device', (ctx) => page(ctx, ctx.query.get('userCode') ?? '', null), {persist: false})

  router.open(
    'POST',
    '/device',
    (ctx) => {
      const form = new URLSearchParams(ctx.rawBody)
      const userCode = (form.get('userCode') ?? '').trim()
      try {
        requireSameOrigin(ctx)
        const {device, store} = ctx.services
        const decision = form.get('decision')
        if (decision === 'approve') {
          const email = form.get('email') ?? ''
          const user = store.userByEmail(email)
          if (user === undefined) throw notFound(`user "${email}" not found`)
          device.approve(userCode, user)
          return done(`Approved. amctl is now signed in as ${user.email}; you can close this page.`)
        }
        if (decision === 'deny') {
          device.deny(userCode)
          return done('Denied. The waiting amctl login will stop.')
        }
        throw invalid('decision must be "approve" or "deny"')
      } catch (error) {
        if (error instanceof ApiError) return page(ctx, userCode, error.message, error.status)
        throw error
      }
    },
    {persist: false},
  )
}

/** A form post from another site must not approve a login (cross-site request forgery). */
function requireSameOrigin(ctx: RequestContext): void {
  const origin = ctx.headers.origin
  if (origin === undefined || origin === 'null') return
  let host: string | undefined
  try {
    host = new URL(origin).host
  } catch {
    host = undefined
  }
  if (host !== ctx.headers.host) throw forbidden('cross-origin form posts are refused')
}

function page(ctx: RequestContext, userCode: string, error: string | null, status = 200): Reply {
  const {device, store} = ctx.services
  const pending = userCode === '' ? undefined : device.pending(userCode)
  const state =
    userCode === ''
      ? ''
      : pending === undefined
        ? `<p>No login is waiting for code <code>${escapeHtml(userCode)}</code>.</p>`
        : `<p>Code <code>${escapeHtml(userCode)}</code> is waiting for approval.</p>`
  const users = store.state.users
    .map((user) => `<option value="${escapeHtml(user.email)}">${escapeHtml(user.name)} &lt;${escapeHtml(user.email)}&gt;</option>`)
    .join('')
  return html(
    layout(`${error === null ? '' : `<p class="error">${escapeHtml(error)}</p>`}${state}
<form method="post" action="/device">
  <label>Code <input name="userCode" value="${escapeHtml(userCode)}" autocomplete="off" required></label>
  <label>Sign in as <select name="email">${users}</select></label>
  <button name="decision" value="approve">Approve</button>
  <button name="decision" value="deny">Deny</button>
</form>`),
    status,
  )
}

function done(message: string): Reply {
  return html(layout(`<p>${escapeHtml(message)}</p>`))
}

/** The page, with an empty icon of its own: a browser asks no /favicon.ico, which would be a 404 in its console. */
function layout(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>amctl dev server: device login</title>
<link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto}label{display:block;margin:.5rem 0}.error{color:#b42318}</style>
</head><body><h1>amctl device login</h1>
${body}
</body></html>`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
