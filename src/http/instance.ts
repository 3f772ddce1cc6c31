import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors/api-error.ts'

/** The onRequest hook of every instance's routes (guest and operator): the `:instance` prefix names the catalog, else 404. */
export async function resolveInstance(request: FastifyRequest): Promise<void> {
  const catalog = request.server.httpParts.catalogs.get((request.params as { instance: string }).instance)
  if (!catalog) throw new ApiError('not_found', `Nothing is at ${request.url.split('?')[0]}`)
  request.catalog = catalog
}
