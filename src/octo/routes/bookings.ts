import { randomUUID } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Temporal } from 'temporal-polyfill'
import { toStoredInstant } from '../../domain/instant-format.ts'
import { ApiError } from '../../errors/api-error.ts'
import { readMissingBodyAsEmpty } from '../../http/json-body.ts'
import { OctoBookingQuery, OctoCancelBody, OctoConfirmBody, OctoExtendBody, OctoReserveBody, OctoUpdateBody, OctoUuidParams, type OctoContact } from '../../schemas/octo.ts'
import type { ResellerContact } from '../../services/reseller-bookings.ts'
import { bookingOf } from '../booking-view.ts'
import { sellableTours } from '../catalog-view.ts'
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
    const tour = requireProductOption(request, body.productId, body.optionId, body.unitItems.map((u) => ({ id: u.unitId })))
    let start: string
    try {
      start = Temporal.Instant.from(body.availabilityId).toString()
    } catch {
      throw invalidAvailability(body.availabilityId)
    }
    const units: Record<string, number> = {}
    for (const item of body.unitItems) units[item.unitId] = (units[item.unitId] ?? 0) + 1
    const ctx = contextOf(request)
    const row = await resellerBookings.reserve(ctx, {
      uuid: body.uuid ?? randomUUID(), tourId: tour.id, start, units,
      expirationMinutes: body.expirationMinutes ?? null, resellerReference: body.resellerReference ?? null,
    }).catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'slot_not_found') throw invalidAvailability(body.availabilityId)
      throw err
    })
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.post('/bookings/:uuid/extend', { schema: { params: OctoUuidParams, body: OctoExtendBody }, preValidation: readMissingBodyAsEmpty }, async (request) => {
    const ctx = contextOf(request)
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.extend(ctx, request.params.uuid, request.body?.expirationMinutes ?? null))
    return bookingOf(octoView(request), row, ctx.now)
  })

  app.post('/bookings/:uuid/confirm', { schema: { params: OctoUuidParams, body: OctoConfirmBody } }, async (request) => {
    const ctx = contextOf(request)
    const contact = requiredContact(request.body.contact)
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.confirm(ctx, request.params.uuid, contact, request.body.resellerReference ?? null))
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
    const { contact, resellerReference } = request.body
    const row = await orInvalidUuid(request.params.uuid, resellerBookings.update(ctx, request.params.uuid, {
      ...resellerReference !== undefined ? { resellerReference } : {},
      ...contact ? {
        contact: {
          ...contact.fullName != null ? { name: contact.fullName.trim() } : {},
          ...contact.emailAddress != null ? { email: contact.emailAddress.trim() } : {},
          ...contact.phoneNumber !== undefined ? { phone: contact.phoneNumber?.trim() || null } : {},
        },
      } : {},
    }))
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
