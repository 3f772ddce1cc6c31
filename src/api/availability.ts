import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Availability, AvailabilityQuery } from '../schemas/availability.ts'
import { readAvailability } from '../services/availability.ts'

export const availabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/availability', {
    schema: { querystring: AvailabilityQuery, response: { 200: Availability } },
    config: { summary: "Departures of a tour over 1 to 14 days, in the operator's time zone", errors: ['tour_not_found', 'date_out_of_range', 'party_out_of_range'] },
  }, async (request) => {
    const { store, clock } = app.tourdesk
    return readAvailability(request.catalog, store.bookings, clock.now(), request.query)
  })
}
