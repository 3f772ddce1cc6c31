import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Instance } from '../catalog/catalog-file.ts'
import { ApiError } from '../errors/api-error.ts'
import { escapeHtml } from '../domain/html-escape.ts'
import { backOfficePath } from '../domain/links.ts'
import { ADMIN_ASSET_PATH, adminBundle, type PageBundle } from './page-bundle.ts'
import { instanceAttributes, pageDocument, pagePolicy } from './page-shell.ts'

/** Never framed. */
const BACK_OFFICE_POLICY = pagePolicy("'none'")

/** The back office's HTML. It says something before the script runs, so the page is never blank. */
function backOfficeShell(instance: Instance, bundle: PageBundle): string {
  const name = escapeHtml(instance.name)
  return pageDocument(`Back office · ${name}`, bundle, `<div id="app" data-base="${escapeHtml(backOfficePath(instance.prefix))}" ${instanceAttributes(instance, `/admin/api/${instance.prefix}`)}>
<main class="boot"><h1>${name} back office</h1><p role="status">Loading…</p>
<noscript><p>The back office needs JavaScript.</p></noscript></main>
</div>`)
}

/** The back office (issue 17) at /admin/<prefix>/, and its hashed, immutable assets at /admin/_assets/. Registered only when TOURDESK_ADMIN is on. */
export async function backOfficeRoutes(app: FastifyInstance): Promise<void> {
  const notFound = (url: string) => new ApiError('not_found', `Nothing is at ${url.split('?')[0]}`)

  const shell = async (request: { params: { instance: string }, url: string }, reply: FastifyReply) => {
    // /admin/api/… paths that no operator route matched fall through to here: they stay 404 problems.
    const catalog = request.params.instance === 'api' ? undefined : app.tourdesk.catalogs.get(request.params.instance)
    if (!catalog) throw notFound(request.url)
    const bundle = await adminBundle()
    return reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', BACK_OFFICE_POLICY)
      .header('Cache-Control', 'no-cache')
      .send(backOfficeShell(catalog.instance, bundle))
  }
  app.get<{ Params: { instance: string } }>('/admin/:instance', shell)
  app.get<{ Params: { instance: string, '*': string } }>('/admin/:instance/*', shell)

  app.get<{ Params: { file: string } }>(`${ADMIN_ASSET_PATH}/:file`, async (request, reply) => {
    const asset = (await adminBundle()).assets.get(request.params.file)
    if (!asset) throw notFound(request.url)
    return reply
      .type(asset.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(asset.body)
  })
}
