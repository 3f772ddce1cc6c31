import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from 'fastify'
import { buildOpenApiDocument } from '../http/openapi.ts'

/** Serves the document of the instance routes, with this instance's base URL as its server. */
export function openApiRoutes(routes: RouteOptions[]): FastifyPluginAsyncTypebox {
  return async (app) => {
    let document: Record<string, unknown> | undefined
    app.get('/openapi.json', {
      config: { summary: 'This OpenAPI 3.1 description' },
    }, async (request, reply) => {
      document ??= buildOpenApiDocument(routes)
      reply.header('Cache-Control', 'public, max-age=300')
      return { ...document, servers: [{ url: `/api/${request.catalog.instance.prefix}`, description: request.catalog.instance.name }] }
    })
  }
}
