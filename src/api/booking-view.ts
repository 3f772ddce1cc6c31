import type { Temporal } from 'temporal-polyfill'
import { dueOnArrival } from '../domain/cancellation.ts'
import { formatStoredInZone } from '../domain/instant-format.ts'
import type { Booking, BookingFields } from '../schemas/booking.ts'
import { guestCancellationOf } from '../services/bookings.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import { addonLinesOf, unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { tourTexts } from '../domain/translation.ts'
import { languageOfBooking } from '../domain/booking-language.ts'

/** The fields of a stored booking that the guest's record and the operator's share. */
export function bookingView(row: BookingRecord, catalog: InstanceCatalog): BookingFields {
  const timeZone = catalog.instance.timezone
  const at = (stored: string) => formatStoredInZone(stored, timeZone)
  // A staff booking may have a phone and no email (a walk-in); a held booking has no contact yet.
  const checkedOut = row.contact_name !== null
  return {
    id: row.id,
    code: row.code,
    status: row.status as Booking['status'],
    tour: { id: row.tour_id, title: catalog.tourById.get(row.tour_id)?.catalog.title ?? row.tour_id },
    start: at(row.start_at),
    end: at(row.end_at),
    timezone: timeZone,
    party: row.party,
    seats: row.seats,
    units: unitLinesOf(row),
    addons: addonLinesOf(row),
    language: languageOfBooking(row, catalog.tourById.get(row.tour_id)?.catalog, catalog.instance),
    promo_code: row.promo_code,
    referral_code: row.referral_code,
    price: {
      currency: row.currency,
      subtotal: row.subtotal,
      addons: row.addons_total,
      discount: row.discount,
      total: row.total,
      due_now: 0,
      due_on_arrival: dueOnArrival(row),
    },
    hold_expires_at: row.status === 'held' && row.hold_expires_at ? at(row.hold_expires_at) : null,
    contact: checkedOut ? { name: row.contact_name!, email: row.contact_email, phone: row.contact_phone } : null,
    cancellable_until: at(row.cancellable_until),
    cancellation: row.cancelled_at === null ? null : {
      cancelled_at: at(row.cancelled_at),
      fee_percent: row.cancellation_fee_percent ?? 0,
      fee: row.cancellation_fee ?? 0,
    },
    created_at: at(row.created_at),
    updated_at: at(row.updated_at),
  }
}

/** What the guest's record of a booking depends on besides the row: the moment of the answer, the reader's language, and how to make its manage link. */
export interface GuestView {
  catalog: InstanceCatalog
  now: Temporal.Instant
  /** The tour's title and meeting point are written in it (src/http/language.ts). */
  language: string
  manageUrl(row: BookingRecord): string | null
}

/** The public booking record: the shared fields (the tour's title in the reader's language), where to meet, what cancelling would cost now, and the manage link. */
export function guestBookingView(row: BookingRecord, view: GuestView): Booking {
  const terms = guestCancellationOf(row, view.catalog.instance.cancellation_policy, view.now)
  const tour = view.catalog.tourById.get(row.tour_id)?.catalog
  const texts = tour && tourTexts(tour, view.language)
  return {
    ...bookingView(row, view.catalog),
    ...(tour && texts ? { tour: { id: tour.id, title: texts.title } } : {}),
    meeting_point: tour && texts ? { ...tour.meeting_point, name: texts.meeting_point.name } : null,
    cancellation_now: terms.allowed
      ? { allowed: true, fee_percent: terms.feePercent, fee: terms.fee }
      : { allowed: false, fee_percent: null, fee: null },
    manage_url: view.manageUrl(row),
  }
}
