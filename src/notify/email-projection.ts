import { createHash, randomBytes } from 'node:crypto'
import { Temporal } from 'temporal-polyfill'
import { ERASED } from '../domain/erasure.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import { backOfficePaths, emailActionPath } from '../domain/links.ts'
import { ON_MANIFEST } from '../schemas/booking-status.ts'
import type { NewEmail } from '../store/emails.ts'
import type { EventNotice, EventRow } from '../store/events.ts'
import { bookingCalendar } from './email-calendar.ts'
import { bookingFacts, cancellationTerms } from './email-facts.ts'
import { guestEmailLanguage, localStart, money, operatorEmailLanguage, sameWriting, type EmailLanguage } from './email-language.ts'
import { guestMessages, type Message } from './email-messages.ts'
import { operatorMessages } from './operator-messages.ts'
import { senderAddress } from './sender-address.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { manageLinkOf } from '../services/manage-token.ts'
import { requestDeadline } from '../services/request-deadline.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { languageOfBooking } from '../domain/booking-language.ts'

/** What making an event's emails needs besides the event. */
export interface ProjectionContext {
  catalog: InstanceCatalog
  secret: string
  /** TOURDESK_PUBLIC_URL: the origin of every link. */
  origin: string
  /** Who hears the operator's news (operator_emails, else the active managers). */
  operators: readonly string[]
  now: Temporal.Instant
}

/** A one-click link of an operator's email, its token only in the email. */
export interface ActionLink {
  instance_id: string
  token_hash: string
  booking_id: string
  action: 'confirm' | 'decline'
  recipient: string
  expires_at: string
  used_at: null
}

export interface Projected {
  emails: NewEmail[]
  links: ActionLink[]
}

/** A booking change only these fields make is news to the guest: where, when, who, what, and the language it is guided in. */
const GUEST_VISIBLE_CHANGES = new Set(['tour_id', 'start_at', 'party', 'units', 'addons', 'total', 'contact_name', 'contact_email', 'language'])

export const hashActionToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** The instance as its calendar files name it: by its name, the address its emails come from, and the public host. */
function organizerOf(catalog: InstanceCatalog, origin: string) {
  return { ...senderAddress(catalog.instance, origin), domain: new URL(origin).hostname }
}

/**
 * What the guest's emails about a booking are written in: the language it is guided in when the
 * instance reads in it, else the default (src/notify/email-language.ts). An event recorded before
 * bookings kept a language reads as its tour's first (src/domain/booking-language.ts).
 */
function guestLanguageOf(row: BookingRecord, catalog: InstanceCatalog): EmailLanguage {
  return guestEmailLanguage(catalog.instance, languageOfBooking(row, catalog.tourById.get(row.tour_id)?.catalog, catalog.instance))
}

/** The emails one event makes (docs/events-and-webhooks.md, "Email"), and the links they carry. */
export function projectEvent(event: EventRow, context: ProjectionContext): Projected {
  const out: Projected = { emails: [], links: [] }
  const { catalog, origin, operators } = context
  const { prefix, ref } = catalog.instance
  const add = (kind: NewEmail['kind'], recipient: string, message: Message, booking: BookingRecord | null, calendar: string | null = null) => {
    out.emails.push({
      instanceId: ref, kind, recipient, bookingId: booking?.id ?? null, dedupeKey: `${event.id}:${kind}:${recipient.toLowerCase()}`,
      subject: message.subject, text: message.text, html: message.html, calendar,
    })
  }
  // Rendered only when someone hears it: an instance with no operator address makes none.
  const toOperators = (kind: NewEmail['kind'], message: () => Message, booking: BookingRecord | null) => {
    if (operators.length === 0) return
    const rendered = message()
    for (const recipient of operators) add(kind, recipient, rendered, booking)
  }
  const data = JSON.parse(event.data) as Record<string, unknown>
  const notice = (event.notice ? JSON.parse(event.notice) : {}) as EventNotice

  if (event.subject_type === 'contact') {
    toOperators('contact_message', () => operatorMessages.contactMessage(catalog, data as { name: string | null, email: string | null, message: string }), null)
    return out
  }
  if (event.type === 'departure.at_risk') {
    const departure = data as { tour_id: string, start: string, min_participants: number | null, seats: Record<string, number> }
    // The minimum counts people, not seats (docs/units.md): an infant on a lap is one of them. An
    // event recorded before its notice carried people has only seats, which then were the people.
    const booked = notice.people ?? ON_MANIFEST.reduce((sum, status) => sum + (departure.seats?.[status] ?? 0), 0)
    const start = Temporal.Instant.from(departure.start)
    const view = `${origin}${backOfficePaths.departure(prefix, departure.tour_id, departure.start)}`
    toOperators('departure_at_risk', () => operatorMessages.departureAtRisk(catalog, {
      tour: catalog.tourById.get(departure.tour_id)?.catalog.title ?? departure.tour_id,
      start: localStart(start.toString(), catalog.instance.timezone, operatorEmailLanguage(catalog.instance)), booked, minimum: departure.min_participants ?? 0,
    }, view), null)
    return out
  }
  if (event.subject_type !== 'booking') return out

  const row = data as unknown as BookingRecord
  const language = guestLanguageOf(row, catalog)
  const facts = bookingFacts(row, catalog, language)
  const operatorLanguage = operatorEmailLanguage(catalog.instance)
  // The operator's facts are the guest's when both are written alike (every booking of an instance in one language).
  const operatorFacts = sameWriting(language, operatorLanguage) ? facts : bookingFacts(row, catalog, operatorLanguage)
  const guestSays = guestMessages(language, catalog)
  // An event erased before it was made into emails (src/store/personal-copies.ts) has no guest to write to.
  const guest = row.contact_email === ERASED ? null : row.contact_email
  const manageUrl = manageLinkOf(context.secret, origin, catalog.instance, row, context.now)
  const view = `${origin}${backOfficePaths.booking(prefix, row.code ?? row.id)}`
  const calendar = () => bookingCalendar(row, facts, language, organizerOf(catalog, origin), manageUrl).content
  const terms = () => cancellationTerms(row, catalog, context.now, language)
  const feeIn = (writing: EmailLanguage) => (row.cancellation_fee ? money(row.cancellation_fee, row.currency, writing) : null)
  const guestHears = notice.notifyGuest !== false && guest !== null

  switch (event.type) {
    case 'booking.requested': {
      if (guestHears) add('request_received', guest, guestSays.requestReceived(facts, terms(), manageUrl), row)
      // Staff who made the request themselves need no alert of it.
      if (row.channel === 'staff') return out
      const deadline = requestDeadline(catalog, { requested_at: row.updated_at, start_at: row.start_at, tour_id: row.tour_id })
      for (const recipient of operators) {
        const link = (action: 'confirm' | 'decline') => {
          const token = randomBytes(24).toString('base64url')
          out.links.push({ instance_id: ref, token_hash: hashActionToken(token), booking_id: row.id, action, recipient, expires_at: toStoredInstant(deadline), used_at: null })
          return `${origin}${emailActionPath(prefix, token)}`
        }
        add('new_request', recipient, operatorMessages.newRequest(operatorFacts, catalog, { view, confirm: link('confirm'), decline: link('decline') },
          localStart(deadline.toString(), catalog.instance.timezone, operatorLanguage)), row)
      }
      return out
    }
    case 'booking.confirmed':
      if (guestHears) add('booking_confirmed', guest, guestSays.confirmed(facts, terms(), manageUrl), row, calendar())
      if (notice.from === 'held') toOperators('new_booking', () => operatorMessages.newBooking(operatorFacts, catalog, view), row)
      return out
    case 'booking.declined':
      if (guestHears) add('booking_declined', guest, guestSays.declined(facts, row.decline_reason, manageUrl), row)
      return out
    case 'booking.cancelled': {
      const wasConfirmed = notice.from === 'confirmed'
      if (notice.cause === 'departure_cancelled') {
        if (guestHears) add('departure_cancelled', guest, guestSays.departureCancelled(facts, row.cancellation_reason, manageUrl), row, wasConfirmed ? calendar() : null)
        return out
      }
      if (guestHears) add('booking_cancelled', guest, guestSays.cancelled(facts, feeIn(language), row.cancelled_by === 'guest', manageUrl), row, wasConfirmed ? calendar() : null)
      // The operator hears of a cancellation it did not make: the guest's own, or one through the reseller that sold it.
      if (row.cancelled_by === 'guest' || row.cancelled_by === 'reseller') toOperators('guest_cancelled', () => operatorMessages.guestCancelled(operatorFacts, catalog, feeIn(operatorLanguage), view), row)
      return out
    }
    case 'booking.changed':
      if (guestHears && (notice.changed ?? []).some((field) => GUEST_VISIBLE_CHANGES.has(field))) {
        add('booking_changed', guest, guestSays.changed(facts, terms(), manageUrl), row, row.status === 'confirmed' ? calendar() : null)
      }
      return out
    default:
      return out
  }
}

/**
 * The guest's confirmation of a booking as it stands, with its calendar file, for staff to
 * send again: made as projectEvent makes the booking.confirmed one, from the same parts.
 */
export function confirmationOf(row: BookingRecord, context: Omit<ProjectionContext, 'operators'>): Message & { calendar: string } {
  const { catalog } = context
  const language = guestLanguageOf(row, catalog)
  const facts = bookingFacts(row, catalog, language)
  const manageUrl = manageLinkOf(context.secret, context.origin, catalog.instance, row, context.now)
  const calendar = bookingCalendar(row, facts, language, organizerOf(catalog, context.origin), manageUrl).content
  return { ...guestMessages(language, catalog).confirmed(facts, cancellationTerms(row, catalog, context.now, language), manageUrl), calendar }
}

/** The guest's reminder of a confirmed booking, made once per booking and start. */
export function reminderOf(row: BookingRecord, context: Omit<ProjectionContext, 'operators'>): NewEmail {
  const { catalog } = context
  const language = guestLanguageOf(row, catalog)
  const facts = bookingFacts(row, catalog, language)
  const manageUrl = manageLinkOf(context.secret, context.origin, catalog.instance, row, context.now)
  const message = guestMessages(language, catalog).reminder(facts, cancellationTerms(row, catalog, context.now, language), manageUrl)
  return {
    instanceId: catalog.instance.ref, kind: 'reminder', recipient: row.contact_email!, bookingId: row.id, dedupeKey: `reminder:${row.id}:${row.start_at}`,
    subject: message.subject, text: message.text, html: message.html, calendar: null,
  }
}
