import type { FastifyInstance, FastifyReply } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { ApiError } from '../errors/api-error.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { bookingFacts } from '../notify/email-facts.ts'
import { operatorEmailLanguage } from '../notify/email-language.ts'
import { backOfficePaths } from '../domain/links.ts'

/** No script at all, and a form that may post only back to this page. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', PAGE_POLICY)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
      + `<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1f2330}`
      + `button{font:inherit;padding:.75rem 1.5rem;border-radius:.5rem;border:0;background:#4b2bb3;color:#fff;min-height:44px}`
      + `button:focus-visible{outline:3px solid #4b2bb3;outline-offset:2px}textarea{width:100%;font:inherit}</style></head>`
      + `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`)
}

/**
 * The confirm and decline links of the operator's new-request email (docs/events-and-webhooks.md, "Email"):
 * opening one shows the booking and asks for one click, since a GET never changes anything
 * (mail scanners open links); the POST spends the link, once, before the request's deadline,
 * and only while the person it was sent to may still act (staff-auth.ts, emailLinkActor),
 * whom the audit then names.
 */
export async function emailActionRoutes(app: FastifyInstance): Promise<void> {
  const path = '/admin/:instance/email-actions/:token'
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))))

  async function linkOf(prefix: string, token: string) {
    const catalog = app.tourdesk.catalogs.get(prefix)
    const found = catalog ? await app.tourdesk.emailActionLinks.find(catalog, token) : null
    return catalog && found ? { catalog, ...found } : null
  }

  const unusable = (reply: FastifyReply) => page(reply, 404, 'This link does not work',
    '<p>It is not a link we sent, or it has been used already, or the request’s deadline has passed, or the person it was sent to may no longer act. Open the request in the back office instead.</p>')

  app.get<{ Params: { instance: string, token: string } }>(path, async (request, reply) => {
    const found = await linkOf(request.params.instance, request.params.token)
    const now = app.tourdesk.clock.now()
    if (!found || found.link.used_at !== null || Temporal.Instant.compare(Temporal.Instant.from(found.link.expires_at), now) <= 0) return unusable(reply)
    const facts = bookingFacts(found.booking, found.catalog, operatorEmailLanguage(found.catalog.instance))
    // Answered already (in the back office, by the other link, or by the system at the
    // deadline): nothing is left to do, so the page offers no button that could only fail.
    if (found.booking.status !== 'requested') {
      const view = backOfficePaths.booking(found.catalog.instance.prefix, found.booking.code ?? found.booking.id)
      return page(reply, 200, `Request ${facts.code} is already ${found.booking.status}`,
        `<p>${escapeHtml(facts.name)}’s request for ${escapeHtml(facts.tour)}, ${escapeHtml(facts.start)}, is no longer waiting for an answer: `
        + `it is ${escapeHtml(found.booking.status)}, so this link is no longer needed.</p><p><a href="${escapeHtml(view)}">Open it in the back office</a></p>`)
    }
    const verb = found.link.action === 'confirm' ? 'Confirm' : 'Decline'
    const reason = found.link.action === 'decline'
      ? '<p><label for="reason">Reason for the guest (optional)</label><br><textarea id="reason" name="reason" rows="3" maxlength="500"></textarea></p>' : ''
    return page(reply, 200, `${verb} request ${facts.code}?`,
      `<p>${escapeHtml(facts.name)} asks for ${facts.units ? escapeHtml(facts.units.described) : `${facts.party} ${facts.party === 1 ? 'place' : 'places'}`} on ${escapeHtml(facts.tour)}, ${escapeHtml(facts.start)}. `
      + `Current status: ${escapeHtml(found.booking.status)}.</p><form method="post">${reason}<button type="submit" autofocus>${verb} it</button></form>`)
  })

  app.post<{ Params: { instance: string, token: string }, Body: { reason?: string } | undefined }>(path, async (request, reply) => {
    const found = await linkOf(request.params.instance, request.params.token)
    const now = app.tourdesk.clock.now()
    if (!found) return unusable(reply)
    const { catalog, link, actor } = found
    if (!(await app.tourdesk.emailActionLinks.spend(catalog, request.params.token, now))) return unusable(reply)
    const ctx = { catalog, now, actor, requestId: request.id, ifMatch: null }
    const reason = typeof request.body?.reason === 'string' ? request.body.reason.slice(0, 500) : undefined
    try {
      const row = link.action === 'confirm'
        ? await app.tourdesk.operatorBookings.confirm(ctx, found.booking.id)
        : await app.tourdesk.operatorBookings.decline(ctx, found.booking.id, reason)
      return page(reply, 200, `Request ${row.code} ${row.status}`, `<p>The guest is told by email. Status now: ${escapeHtml(row.status)}.</p>`)
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      return page(reply, 409, `Request ${found.booking.code} not changed`, `<p>${escapeHtml(err.message)}</p>`)
    }
  })
}
