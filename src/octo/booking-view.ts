import type { Booking, Contact, UnitItem } from '@octocloud/types'
import { Temporal } from 'temporal-polyfill'
import { unitLinesOf, type BookingRecord } from '../domain/booking.ts'
import { ERASED } from '../domain/erasure.ts'
import { formatStoredInZone } from '../domain/instant-format.ts'
import { netOf } from '../domain/reseller-terms.ts'
import type { BookingStatus } from '../schemas/booking-status.ts'
import { refundOf } from '../services/reseller-bookings.ts'
import { OPTION_ID, pricingOf, productOf, type OctoView } from './catalog-view.ts'

/** Our statuses in OCTo's words (docs/resellers.md, "Mapping"); a released hold was cancelled by the reseller. */
const STATUS: Record<BookingStatus, Booking['status']> = {
  held: 'ON_HOLD', expired: 'EXPIRED', released: 'CANCELLED', requested: 'PENDING', declined: 'REJECTED',
  confirmed: 'CONFIRMED', cancelled: 'CANCELLED', completed: 'REDEEMED', no_show: 'CONFIRMED',
} as Record<BookingStatus, Booking['status']>

const utc = (stored: string | null) => stored === null ? null : Temporal.Instant.from(stored).toString()

function contactOf(row: BookingRecord): Contact {
  // An erased contact's email reads "erased" (src/domain/erasure.ts), which is no address: OCTo's
  // emailAddress must be one, or null.
  const emailAddress = row.contact_email === ERASED ? null : row.contact_email
  return {
    fullName: row.contact_name, firstName: null, lastName: null, emailAddress, phoneNumber: row.contact_phone,
    locales: [], postalCode: null, country: null, notes: null,
  }
}

/** A reseller's booking as OCTo's booking: one unit item per unit booked, the booking code as the voucher's QR code. */
export function bookingOf(view: OctoView, row: BookingRecord, now: Temporal.Instant): Booking {
  const status = STATUS[row.status]
  const tour = view.catalog.tourById.get(row.tour_id)!.catalog
  const contact = contactOf(row)
  const redeemedAt = row.status === 'completed' ? utc(row.checked_in_at ?? row.updated_at) : null
  const voucher = row.code === null ? null : {
    redemptionMethod: 'MANIFEST',
    utcRedeemedAt: redeemedAt,
    deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: row.code }],
  }
  const commission = row.reseller_commission_basis_points ?? 0
  const unitItems: UnitItem[] = unitLinesOf(row).flatMap((line) => Array.from({ length: line.quantity }, (_, i) => ({
    uuid: `${row.reseller_uuid ?? row.id}-${line.id}-${i + 1}`,
    resellerReference: null,
    supplierReference: row.code,
    unitId: line.id,
    status,
    utcRedeemedAt: redeemedAt,
    contact,
    ticket: null,
    ...view.pricing ? { pricing: pricingOf(view, Math.round(line.amount / line.quantity), Math.round(line.amount / line.quantity), row.currency) } : {},
  })))
  const live = row.status === 'held' || row.status === 'requested' || row.status === 'confirmed'
  return {
    id: row.id,
    uuid: row.reseller_uuid ?? row.id,
    testMode: false,
    resellerReference: row.reseller_reference,
    supplierReference: row.code,
    status,
    utcCreatedAt: utc(row.created_at)!,
    utcUpdatedAt: utc(row.updated_at)!,
    utcExpiresAt: row.status === 'held' ? utc(row.hold_expires_at) : null,
    utcRedeemedAt: redeemedAt,
    utcConfirmedAt: row.status === 'confirmed' || row.status === 'completed' || row.status === 'no_show' ? utc(row.updated_at) : null,
    productId: row.tour_id,
    product: productOf(view, tour),
    optionId: OPTION_ID,
    cancellable: live && Temporal.Instant.compare(Temporal.Instant.from(row.start_at), now) > 0,
    cancellation: row.cancelled_at === null ? null : { refund: refundOf(row) as NonNullable<Booking['cancellation']>['refund'], reason: row.cancellation_reason, utcCancelledAt: utc(row.cancelled_at)! },
    freesale: false,
    availabilityId: formatStoredInZone(row.start_at, view.catalog.instance.timezone),
    availability: null,
    contact,
    notes: row.reseller_notes ?? null,
    deliveryMethods: ['VOUCHER'] as Booking['deliveryMethods'],
    voucher: voucher as Booking['voucher'],
    unitItems,
    ...view.pricing ? { pricing: { ...pricingOf(view, row.subtotal + row.addons_total, row.total, row.currency), net: netOf(row.total, commission) } } : {},
  }
}
