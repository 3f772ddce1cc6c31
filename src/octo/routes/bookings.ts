import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../../domain/instant-format.ts'
import { ApiError } from '../../errors/api-error.ts'
import { readMissingBodyAsEmpty } from '../../http/json-body.ts'
import { OctoBookingQuery, OctoCancelBody, OctoConfirmBody, OctoExtendBody, OctoReserveBody, OctoUpdateBody, OctoUuidParams, type OctoContact } from '../../schemas/octo.ts'
import type { ResellerChange } from '../../services/reseller-booking-changes.ts'
import type { ResellerContact } from '../../services/reseller-bookings.ts'
import { bookingOf } from '../booking-view.ts'
import { OPTION_ID, sellableTours } from '../catalog-view.ts'
import { badRequest, invalidAvailability, invalidProduct, invalidUuid } from '../errors.ts'
import { octoView } from '../octo-request.ts'
import { requireProductOption } from './availability.ts'

/** A booking the key does not have is INVALID_BOOKING_UUID, whether or not another key has it. */
async function orInvalidUuid<T>(uuid: string, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') throw invalidUuid(uuid)
    throw err
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** An availability id is its departure's start (docs/resellers.md, "Mapping"), in stored form. */
function startOf(availabilityId: string): string {
  try {
    return Temporal.Instant.from(availabilityId).toString()
  } catch {
    throw invalidAvailability(availabilityId)
  }
}

/** A departure the tour does not have, asked for by its availability id, is INVALID_AVAILABILITY_ID naming that id. */
async function orInvalidAvailability<T>(availabilityId: string | undefined, work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    if (availabilityId !== undefined && err instanceof ApiError && err.code === 'slot_not_found') throw invalidAvailability(availabilityId)
    throw err
  }
}

/** OCTo's unit items, one per person or ticket, as quantities by unit. */
function unitCounts(items: ReadonlyArray<{ unitId: string }>): Record<string, number> {
  const units: Record<string, number> = {}
  for (const item of items) units[item.unitId] = (units[item.unitId] ?? 0) + 1
  return units
}

/** Notes as kept: trimmed, blank is none (null); left out stays undefined. */
const notesOf = (notes: string | null | undefined) => notes === undefined ? undefined : notes?.trim() || null

/** A contact field a change may replace but not blank: the booking keeps a name and an address to reach its guest. */
function requiredText(text: string, field: string): string {
  if (text.trim() === '') throw badRequest(`${field} cannot be blank`)
  return text.trim()
}

/** Confirm's contact: a name (fullName, or firstName and lastName) and an email address. */
function requiredContact(contact: OctoContact): ResellerContact {
  const name = (contact.fullName ?? [contact.firstName, contact.lastName].filter(Boolean).join(' ')).trim()
  const email = contact.emailAddress?.trim() ?? ''
  if (name === '' || email === '') throw badRequest('contact needs fullName (or firstName and lastName) and emailAddress')
  return { name, email, phone: contact.phoneNumber?.trim() || null }
}

/** Reserve, extend, confirm, read, list, update and cancel (docs/resellers.md, "Operations"), through src/services/reseller-bookings.ts. */
export const octoBookingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { resellerBookings, store, clock } = app.tourdesk
  const contextOf = (request: FastifyRequest) => ({ catalog: request.catalog, reseller: request.reseller!, now: clock.now() })

  app.post('/bookings', { schema: { body: OctoReserveBody } }, async (request) => {
    const body = request.body
    // OCTo's uuid is a UUID (its answers say so): another text would be answered in a booking OCTo calls invalid.
    if (body.uuid !== undefined && !UUID.test(body.uuid)) throw invalidUuid(body.uuid)
    const tour = requireProductOption(request, body.productId, body.optionId, body.unitItems.map((u) => ({ id: u.unitId })))
    const ctx = contextOf(request)
    const row = await orInvalidAvailability(body.availabilityId, resellerBookings.reserve(ctx, {
      uuid: body.uuid ?? randomUUID(), tourId: tour.id, start: startOf(body.availabilityId), units: unitCounts(body.unitItems),
      expirationMinutes: body.expirationMinutes ?? null, resellerReference: body.resellerReference ?? null, notes: notesOf(body.notes) ?? null,
    }))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.post('/bookings/:uuid/extend', { schema: { params: OctoUuidParams, body: OctoExtendBody }, preValidation: readMissingBodyAsEmpty }, async (request) => {
    const ctx = contextOf(request)
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.extend(ctx, request.params.uuid, request.body?.expirationMinutes ?? null))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.post('/bookings/:uuid/confirm', { schema: { params: OctoUuidParams, body: OctoConfirmBody } }, async (request) => {
    const ctx = contextOf(request)
    const { uuid } = request.params
    const contact = requiredContact(request.body.contact)
    const items = request.body.unitItems ?? []
    if (items.length > 0) {
      const current = await orInvalidUuid(uuid, resellerBookings.get(ctx, uuid))
      requireProductOption(request, current.tour_id, OPTION_ID, items.map((u) => ({ id: u.unitId })))
    }
    const row = await orInvalidUuid(uuid, resellerBookings.confirm(ctx, uuid, {
      contact, resellerReference: request.body.resellerReference ?? null, units: items.length > 0 ? unitCounts(items) : null,
      // OCTo's confirmation has no notes of its own; a reseller may send them, or as the contact's.
      notes: notesOf(request.body.notes ?? request.body.contact.notes) ?? null,
    }))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.post('/bookings/:uuid/cancel', { schema: { params: OctoUuidParams, body: OctoCancelBody }, preValidation: readMissingBodyAsEmpty }, async (request) => {
    const ctx = contextOf(request)
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.cancel(ctx, request.params.uuid, request.body?.reason?.trim() || null))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.get('/bookings/:uuid', { schema: { params: OctoUuidParams } }, async (request) => {
    const ctx = contextOf(request)
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.get(ctx, request.params.uuid))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.patch('/bookings/:uuid', { schema: { params: OctoUuidParams, body: OctoUpdateBody } }, async (request) => {
    const ctx = contextOf(request)
    const { uuid } = request.params
    const { contact, resellerReference, notes, productId, optionId, availabilityId, unitItems, expirationMinutes } = request.body
    let move: ResellerChange['move']
    if (productId !== undefined || optionId !== undefined || availabilityId !== undefined || unitItems !== undefined) {
      const current = await orInvalidUuid(uuid, resellerBookings.get(ctx, uuid))
      const tour = requireProductOption(request, productId ?? current.tour_id, optionId ?? OPTION_ID, unitItems?.map((u) => ({ id: u.unitId })))
      move = {
        ...tour.id !== current.tour_id ? { tour_id: tour.id } : {},
        ...availabilityId !== undefined ? { start: startOf(availabilityId) } : {},
        ...unitItems !== undefined ? { units: unitCounts(unitItems) } : {},
      }
    }
    const row = await orInvalidUuid(uuid, orInvalidAvailability(availabilityId, resellerBookings.update(ctx, uuid, {
      ...move !== undefined ? { move } : {},
      ...resellerReference !== undefined ? { resellerReference } : {},
      ...notes !== undefined ? { notes: notesOf(notes) ?? null } : {},
      ...expirationMinutes !== undefined ? { expirationMinutes } : {},
      ...contact ? {
        contact: {
          ...contact.fullName != null ? { name: requiredText(contact.fullName, 'contact.fullName') } : {},
          ...contact.emailAddress != null ? { email: requiredText(contact.emailAddress, 'contact.emailAddress') } : {},
          ...contact.phoneNumber !== undefined ? { phone: contact.phoneNumber?.trim() || null } : {},
        },
      } : {},
    })))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.get('/bookings', { schema: { querystring: OctoBookingQuery } }, async (request) => {
    const query = request.query
    const view = octoView(request)
    const zone = request.catalog.instance.timezone
    const from = query.localDate ?? query.localDateStart
    const until = query.localDate ?? query.localDateEnd
    if (query.resellerReference === undefined && query.supplierReference === undefined && from === undefined && until === undefined && query.productId === undefined) {
      throw badRequest('Filter by at least one of resellerReference, supplierReference, localDate, localDateStart/localDateEnd or productId')
    }
    if (query.productId !== undefined && !sellableTours(view).some((t) => t.id === query.productId)) throw invalidProduct(query.productId)
    const startOf = (date: string) => toStoredInstant(Temporal.PlainDate.from(date).toZonedDateTime(zone).toInstant())
    const rows = await store.resellerBookings.list(request.catalog.instance.ref, request.reseller!.keyId, {
      resellerReference: query.resellerReference,
      supplierReference: query.supplierReference,
      tourId: query.productId,
      ...from !== undefined ? { startFrom: startOf(from) } : {},
      ...until !== undefined ? { startUntil: startOf(Temporal.PlainDate.from(until).add({ days: 1 }).toString()) } : {},
    }, 500)
    const now = clock.now()
    return rows.map((row) => bookingOf(view, row, now))
  })
}
