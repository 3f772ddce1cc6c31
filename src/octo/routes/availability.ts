import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { unitsOf } from '../../domain/units.ts'
import { OctoAvailabilityBody, OctoCalendarBody } from '../../schemas/octo.ts'
import type { CatalogTour } from '../../schemas/catalog.ts'
import { askedMix, availabilityOf, calendarOf, daysBetween, slotsBetween } from '../availability-view.ts'
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

/** POST /availability/calendar and /availability: the departures as the guest availability reads them, in OCTo's shapes. */
export const octoAvailabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { store, clock } = app.tourdesk

  app.post('/availability/calendar', { schema: { body: OctoCalendarBody } }, async (request) => {
    const body = request.body
    const tour = requireProductOption(request, body.productId, body.optionId, body.units)
    const view = octoView(request)
    const now = clock.now()
    const mix = askedMix(tour, body.units)
    const slots = await slotsBetween(view, store.departures, tour, body.localDateStart, body.localDateEnd, now)
    return calendarOf(view, tour, slots, daysBetween(view, body.localDateStart, body.localDateEnd, now), mix?.seats ?? 1, mix ? mix.lines.reduce((s, l) => s + l.amount, 0) : tour.price)
  })

  app.post('/availability', { schema: { body: OctoAvailabilityBody } }, async (request) => {
    const body = request.body
    const tour = requireProductOption(request, body.productId, body.optionId, body.units)
    const view = octoView(request)
    const now = clock.now()
    const mix = askedMix(tour, body.units)
    const seats = mix?.seats ?? 1
    const price = mix ? mix.lines.reduce((s, l) => s + l.amount, 0) : tour.price
    const range = body.localDate !== undefined ? [body.localDate, body.localDate] as const
      : body.localDateStart !== undefined && body.localDateEnd !== undefined ? [body.localDateStart, body.localDateEnd] as const : null
    if ((range === null) === (body.availabilityIds === undefined)) {
      throw badRequest('Send either localDate, localDateStart and localDateEnd, or availabilityIds')
    }
    if (range) {
      const slots = await slotsBetween(view, store.departures, tour, range[0], range[1], now)
      return slots.map((slot) => availabilityOf(view, tour, slot, seats, price))
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
