import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Instance } from '../catalog/catalog-file.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { backOfficePath, bookingPagePath } from '../domain/links.ts'

/** No script; the one inline style is this page's own. */
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/** Which page of an instance a list entry leads to. */
type PageOf = (instance: Instance) => string

function listPage(reply: FastifyReply, title: string, instances: Instance[], pageOf: PageOf): FastifyReply {
  const items = instances.map((instance) => `<li><a href="${escapeHtml(pageOf(instance))}">${escapeHtml(instance.name)}</a></li>`).join('')
  return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', POLICY).header('Cache-Control', 'no-cache')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
      + `<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1f2330}`
      + `a{color:#4b2bb3}li{margin:.5rem 0}</style></head><body><main><h1>${escapeHtml(title)}</h1><ul>${items}</ul></main></body></html>`)
}

/**
 * The addresses people type first (issue 25, item 10): `/` and `/book/` lead to the booking
 * page, `/admin/` to the back office. With one instance they redirect to its page (302, so a
 * second instance added later is not hidden by a cached redirect); with several they list
 * the instances' pages by name.
 */
export function entryPageRoutes(options: { admin: boolean }) {
  return async function entryPages(app: FastifyInstance): Promise<void> {
    const instances = () => [...app.tourdesk.catalogs.values()].map((catalog) => catalog.instance)
    const entry = (title: string, pageOf: PageOf) => async (_request: unknown, reply: FastifyReply) => {
      const all = instances()
      if (all.length === 1) return reply.redirect(pageOf(all[0]), 302)
      return listPage(reply, title, all, pageOf)
    }
    const bookingPage = (instance: Instance) => bookingPagePath(instance.prefix)
    app.get('/', entry('Book a tour', bookingPage))
    app.get('/book', entry('Book a tour', bookingPage))
    if (options.admin) app.get('/admin', entry('Back offices', (instance) => backOfficePath(instance.prefix)))
  }
}
