import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { searchTours } from '../domain/tour-search.ts'
import { Tour, TourList, TourListQuery, TourParams } from '../schemas/tour.ts'
import { requireTour } from '../services/availability.ts'

export const tourRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/tours', {
    schema: { querystring: TourListQuery, response: { 200: TourList } },
    config: { summary: 'List tours in catalog order, or search them by relevance with q' },
  }, async (request) => {
    const { catalog } = request
    const q = request.query.q?.trim() || null
    const tours = q === null ? catalog.tours : searchTours(catalog.searchIndex, q).map((i) => catalog.tours[i])
    return { tours, total: tours.length, q }
  })

  app.get('/tours/:id', {
    schema: { params: TourParams, response: { 200: Tour } },
    config: { summary: 'One tour', errors: ['tour_not_found'] },
  }, async (request) => requireTour(request.catalog, request.params.id).record)
}
