import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { unitsOf } from '../../domain/units.ts'
import { OctoAvailabilityBody, OctoCalendarBody } from '../../schemas/octo.ts'
import type { Availability } from '../../schemas/availability.ts'
import type { CatalogTour } from '../../schemas/catalog.ts'
import { sendKeptJson } from '../../http/compressed-answer.ts'
import type { AnswerReuse } from '../../http/serialized-answer.ts'
import { AvailabilityAnswers } from '../../services/availability-answers.ts'
import { askedSeatsAndPrice, availabilityOf, calendarOf, daysBetween, rangeWindow, slotsBetween } from '../availability-view.ts'
import { OPTION_ID, sellableTours } from '../catalog-view.ts'
import { badRequest, invalidAvailability, invalidOption, invalidProduct, invalidUnit } from '../errors.ts'
import { octoView } from '../octo-request.ts'

/** The product and option asked about, among the tours this key may sell, and the units asked about. */
export function requireProductOption(request: FastifyRequest, productId: string, optionId: string, units?: ReadonlyArray<{ id: string }>): CatalogTour {
  const tour = sellableTours(octoView(request)).find((t) => t.id === productId)
  if (!tour) throw invalidProduct(productId)
  if (optionId !== OPTION_ID) throw invalidOption(optionId)
  const known = new Set(unitsOf(tour).map((u) => u.id))
  const unknown = units?.find((u) => !known.has(u.id))
  if (unknown) throw invalidUnit(unknown.id)
  return tour
}

/** Bytes of OCTo answers kept: a 90-day calendar is about 20 KB, 90 days of three departures about 100 KB. */
const KEPT_OCTO_BYTES = 16 * 1024 * 1024

/**
 * POST /availability/calendar and /availability: the departures as the guest availability reads
 * them, in OCTo's shapes. Resellers poll months ahead every few minutes (docs/resellers.md,
 * "Polling"), so answers over a range are kept as the guest availability's are
 * (src/services/availability-answers.ts): per catalog version, reused until a commit moves
 * seats, holds or departures, or a cutoff, start or hold lapse in the range comes.
 */
export const octoAvailabilityRoutes: FastifyPluginAsyncTypebox<AnswerReuse> = async (app, { reuseAnswers }) => {
  const { store, clock } = app.tourdesk
  const answers = new AvailabilityAnswers(store, reuseAnswers, KEPT_OCTO_BYTES)

  /** The tour, reseller's view, time, and seats and price per departure that both routes answer for. */
  function askedOf(request: FastifyRequest, body: { productId: string, optionId: string, units?: ReadonlyArray<{ id: string, quantity: number }> }) {
    const tour = requireProductOption(request, body.productId, body.optionId, body.units)
    return { tour, view: octoView(request), now: clock.now(), ...askedSeatsAndPrice(tour, body.units) }
  }

  /**
   * The answer over the days `from` to `until`, kept per window and per what else it depends on
   * (the route, the reseller's terms and capabilities, the units asked about); [] when the range
   * holds nothing to read.
   */
  async function rangeAnswer(request: FastifyRequest, reply: FastifyReply, asked: ReturnType<typeof askedOf>, route: string,
    from: string, until: string, render: (answer: Availability) => unknown) {
    const { tour, view, now, seats, price } = asked
    const window = rangeWindow(view, tour, from, until, now)
    if (window === null) return []
    const shape = `${route} ${view.reseller.keyId} ${view.reseller.commissionBasisPoints} ${view.pricing} ${seats} ${price}`
    return sendKeptJson(request, reply, await answers.body(view.catalog, now, window, (answer) => JSON.stringify(render(answer)), shape))
  }

  app.post('/availability/calendar', { schema: { body: OctoCalendarBody } }, async (request, reply) => {
    const { localDateStart, localDateEnd } = request.body
    const asked = askedOf(request, request.body)
    const { tour, view, now, seats, price } = asked
    // The days are listed only when the answer is read afresh: 90 days of date arithmetic in the
    // Temporal polyfill cost more than sending a kept answer.
    return rangeAnswer(request, reply, asked, 'calendar', localDateStart, localDateEnd,
      (answer) => calendarOf(view, tour, answer.slots, daysBetween(view, localDateStart, localDateEnd, now), seats, price))
  })

  app.post('/availability', { schema: { body: OctoAvailabilityBody } }, async (request, reply) => {
    const body = request.body
    const asked = askedOf(request, body)
    const { tour, view, now, seats, price } = asked
    const range = body.localDate !== undefined ? [body.localDate, body.localDate] as const
      : body.localDateStart !== undefined && body.localDateEnd !== undefined ? [body.localDateStart, body.localDateEnd] as const : null
    if ((range === null) === (body.availabilityIds === undefined)) {
      throw badRequest('Send either localDate, localDateStart and localDateEnd, or availabilityIds')
    }
    if (range) {
      return rangeAnswer(request, reply, asked, 'departures', range[0], range[1],
        (answer) => answer.slots.map((slot) => availabilityOf(view, tour, slot, seats, price)))
    }
    // By ids: each id is a departure's start; the days they fall on are read once.
    const ids = body.availabilityIds!
    const dates = ids.map((id) => /^(\d{4}-\d{2}-\d{2})T/.exec(id)?.[1])
    const badId = ids.find((_, i) => dates[i] === undefined)
    if (badId !== undefined) throw invalidAvailability(badId)
    const sorted = (dates as string[]).slice().sort()
    const slots = await slotsBetween(view, store.departures, tour, sorted[0], sorted[sorted.length - 1], now)
    return ids.map((id) => {
      const slot = slots.find((s) => s.start === id)
      if (!slot) throw invalidAvailability(id)
      return availabilityOf(view, tour, slot, seats, price)
    })
  })
}
