import type { FastifyInstance, FastifyReply } from 'fastify'
import type { Instance } from '../catalog/catalog-file.ts'
import { ApiError } from '../errors/api-error.ts'
import { ADMIN_ASSET_PATH, adminBundle, type PageBundle } from './page-bundle.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Where an instance's back office is served; every path below it is the same document (the page routes itself). */
export function backOfficePath(prefix: string): string {
  return `/admin/${prefix}/`
}

/** Scripts, styles and API calls from this service only, nothing inline, never framed. */
export const BACK_OFFICE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The back office's HTML: no script or style of its own (the policy forbids inline ones); the
 * instance travels as data attributes that the bundled script reads. It says something before
 * the script runs, so the page is never blank.
 */
function backOfficeShell(instance: Instance, bundle: PageBundle): string {
  const name = escapeHtml(instance.name)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Back office · ${name}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${bundle.style}">
<script type="module" src="${bundle.script}"></script>
</head>
<body>
<div id="app" data-base="${escapeHtml(backOfficePath(instance.prefix))}" data-api="/admin/api/${escapeHtml(instance.prefix)}" data-name="${name}" data-timezone="${escapeHtml(instance.timezone)}" data-currency="${escapeHtml(instance.currency)}">
<main class="boot"><h1>${name} back office</h1><p role="status">Loading…</p>
<noscript><p>The back office needs JavaScript.</p></noscript></main>
</div>
</body>
</html>
`
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
