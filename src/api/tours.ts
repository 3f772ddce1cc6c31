import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { KeptAnswers } from '../http/kept-answers.ts'
import { serializeList } from '../http/list-answer.ts'
import { sendSerialized, type AnswerReuse } from '../http/serialized-answer.ts'
import { LanguageQuery } from '../schemas/language.ts'
import { Tour, TOUR_PAGE_DEFAULT, TOUR_PAGE_MAX, TourList, TourListQuery, TourParams } from '../schemas/tour.ts'
import { tourRecordIn } from '../catalog/translated-catalog.ts'
import { requireOfferedTour } from '../services/availability.ts'
import { tourList } from '../services/tour-list.ts'

/**
 * Bytes of tour lists kept, over every instance and catalog version: a small catalog's list
 * and its searches, or a few hundred pages of a large one. A list too large to make whole
 * (list-answer.ts) is never kept: it is made afresh for each reader as it is sent.
 */
const KEPT_LIST_BYTES = 8 * 1024 * 1024

export const tourRoutes: FastifyPluginAsyncTypebox<AnswerReuse> = async (app, { reuseAnswers }) => {
  // Serializing a list (every tour with its description and add-ons) costs far more than
  // finding it, and the answer for a query of one catalog version never changes.
  const kept = new KeptAnswers(KEPT_LIST_BYTES)

  app.get('/tours', {
    schema: { querystring: TourListQuery, response: { 200: TourList } },
    config: {
      language: true,
      summary: 'List tours in catalog order, or search them by relevance with q',
      description: "Every tour of the catalog, its texts in the reader's language (lang, else Accept-Language; docs/languages.md). "
        + 'With q, the tours whose title, summary, tags or meeting point match its words, in that language or the default one, '
        + 'case and accents ignored, most relevant first.\n\n'
        + 'Without limit and cursor the answer is the whole list, as it always was, with no next_cursor. With limit or cursor it is '
        + `one page: at most limit tours (${TOUR_PAGE_DEFAULT} when only cursor is given, ${TOUR_PAGE_MAX} at most) and next_cursor, `
        + 'which fetches the next page when passed as cursor with the same q, and is null on the last page; total still counts the '
        + 'whole list. A cursor continues after the tour its page ended with, wherever a catalog change has moved it since, or at '
        + 'the same position if that tour has left the list; a cursor from another q, or not from this list, is 400 validation_failed. '
        + 'A large catalog is best read in pages: its whole list can be many megabytes.',
    },
  }, async (request, reply) => {
    const { catalog } = request
    const { limit, cursor } = request.query
    const q = request.query.q?.trim() || null
    const language = request.language!
    const key = JSON.stringify([catalog.instance.ref, catalog.version, language, q, limit ?? null, cursor ?? null])
    const keptBody = kept.get(key)
    if (keptBody !== undefined) return sendSerialized(reply, keptBody)
    const answer = serializeList(reply, tourList(catalog, { q, limit, cursor }, language), 'tours', Tour)
    if (answer.whole && reuseAnswers) kept.set(key, answer.whole)
    return sendSerialized(reply, answer.whole ?? answer.stream)
  })

  app.get('/tours/:id', {
    schema: { params: TourParams, querystring: LanguageQuery, response: { 200: Tour } },
    config: {
      language: true,
      summary: 'One tour',
      description: 'The whole tour: description, meeting point, languages, price per person, party limits, capacity per departure, '
        + "booking cutoff, how bookings are confirmed, and its add-ons; its texts in the reader's language (lang, else Accept-Language).",
      errors: ['tour_not_found'],
    },
  }, async (request) => tourRecordIn(request.catalog, requireOfferedTour(request.catalog, request.params.id), request.language!))
}
