import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sendSerialized, serializeAnswer, type AnswerReuse } from '../http/serialized-answer.ts'
import { Availability, AvailabilityQuery } from '../schemas/availability.ts'
import { availabilityWindow } from '../services/availability.ts'
import { AvailabilityAnswers } from '../services/availability-answers.ts'

export const availabilityRoutes: FastifyPluginAsyncTypebox<AnswerReuse> = async (app, { reuseAnswers }) => {
  const { store, clock } = app.tourdesk
  const answers = new AvailabilityAnswers(store, reuseAnswers)

  app.get('/availability', {
    schema: { querystring: AvailabilityQuery, response: { 200: Availability } },
    config: {
      summary: "Departures of a tour over 1 to 14 days, in the operator's time zone",
      description: "The departures that have not yet begun, over days days from date (today in the operator's zone by default), "
        + 'each with its seats left and status; held, requested and confirmed seats all count. guaranteed says the departure has reached its '
        + "tour's minimum to run with requests and confirmed bookings (holds do not count; false for a tour without a minimum). With party, each says whether it can be "
        + 'booked for that party and, when not, why. With units (adult:2,child:1), party is the people they count and bookable judges the seats '
        + 'they take (docs/units.md). Each slot has price, the subtotal of the mix asked (one of the first unit when none is).',
      errors: ['tour_not_found', 'date_out_of_range', 'party_out_of_range', 'invalid_unit', 'unit_not_allowed', 'party_mismatch'],
    },
  }, async (request, reply) => {
    const now = clock.now()
    const window = availabilityWindow(request.catalog, now, request.query)
    const body = await answers.body(request.catalog, now, window, (answer) => serializeAnswer(reply, answer))
    return sendSerialized(reply, body)
  })
}
