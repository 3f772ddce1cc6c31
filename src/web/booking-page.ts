import type { FastifyInstance } from 'fastify'
import type { Instance } from '../catalog/catalog-file.ts'
import { ApiError } from '../errors/api-error.ts'
import { ASSET_PATH, pageBundle } from './page-bundle.ts'
import { pagePolicy, pageShell } from './page-shell.ts'

/**
 * Sites allowed to embed the page in a frame: the service itself and the operator's own sites,
 * i.e. the instance's `allowed_origins` and `cors_origins`. Anything that is not a plain
 * origin is left out, so a catalog value can never widen or break the header.
 */
function frameAncestors(instance: Instance): string {
  const origins = new Set<string>()
  for (const value of [...instance.allowedOrigins, ...(instance.cors_origins ?? [])]) {
    try {
      const origin = new URL(value).origin
      if (origin === value && /^https?:$/.test(new URL(value).protocol)) origins.add(origin)
    } catch {
      // not a URL: not an origin a browser could match either
    }
  }
  return ["'self'", ...origins].join(' ')
}

/** The page's own policy: it may be framed by the operator's sites. */
export function bookingPagePolicy(instance: Instance): string {
  return pagePolicy(frameAncestors(instance))
}

export async function bookingPageRoutes(app: FastifyInstance): Promise<void> {
  // The page chooses its view from the path, so the booking view is the same document.
  for (const path of ['/book/:instance', '/book/:instance/manage']) {
    app.get<{ Params: { instance: string } }>(path, async (request, reply) => {
      const catalog = app.tourdesk.catalogs.get(request.params.instance)
      if (!catalog) throw new ApiError('not_found', `Nothing is at ${request.url.split('?')[0]}`)
      const bundle = await pageBundle()
      return reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', bookingPagePolicy(catalog.instance))
        .header('Cache-Control', 'no-cache')
        .send(pageShell(catalog.instance, bundle))
    })
  }

  app.get<{ Params: { file: string } }>(`${ASSET_PATH}/:file`, async (request, reply) => {
    const asset = (await pageBundle()).assets.get(request.params.file)
    if (!asset) throw new ApiError('not_found', `Nothing is at ${request.url.split('?')[0]}`)
    return reply
      .type(asset.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(asset.body)
  })
}
