import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LruMap } from '../domain/lru-map.ts'
import { searchTours } from '../domain/tour-search.ts'
import { sendSerialized, serializeAnswer, type AnswerReuse } from '../http/serialized-answer.ts'
import { Tour, TourList, TourListQuery, TourParams } from '../schemas/tour.ts'
import { requireOfferedTour } from '../services/availability.ts'

/** Distinct searches whose answers are kept, per catalog version (an edit makes a new version). */
const SEARCH_ANSWER_LIMIT = 1_000

export const tourRoutes: FastifyPluginAsyncTypebox<AnswerReuse> = async (app, { reuseAnswers }) => {
  // Serializing the list (every tour with its description and add-ons) costs far more than
  // finding it, and the answer for an instance and a query is fixed for a catalog version.
  const answers = new LruMap<string, Buffer>(SEARCH_ANSWER_LIMIT)

  app.get('/tours', {
    schema: { querystring: TourListQuery, response: { 200: TourList } },
    config: {
      summary: 'List tours in catalog order, or search them by relevance with q',
      description: 'Every tour of the catalog. With q, the tours whose title, summary, tags or meeting point match its words, '
        + 'case and accents ignored, most relevant first.',
    },
  }, async (request, reply) => {
    const { catalog } = request
    const q = request.query.q?.trim() || null
    const key = `${catalog.instance.ref}\n${catalog.version}\n${q ?? ''}`
    let body = answers.get(key)
    if (body === undefined) {
      const tours = q === null ? catalog.tours : searchTours(catalog.searchIndex, q).map((i) => catalog.tours[i])
      body = Buffer.from(serializeAnswer(reply, { tours, total: tours.length, q } satisfies TourList))
      if (reuseAnswers) answers.set(key, body)
    }
    return sendSerialized(reply, body)
  })

  app.get('/tours/:id', {
    schema: { params: TourParams, response: { 200: Tour } },
    config: {
      summary: 'One tour',
      description: 'The whole tour: description, meeting point, languages, price per person, party limits, capacity per departure, '
        + 'booking cutoff, how bookings are confirmed, and its add-ons.',
      errors: ['tour_not_found'],
    },
  }, async (request) => requireOfferedTour(request.catalog, request.params.id).record)
}
