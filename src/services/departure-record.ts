import { Temporal } from 'temporal-polyfill'
import { departureAt } from '../domain/departure-at.ts'
import { isGuaranteed, minimumToRun } from '../domain/minimum-to-run.ts'
import type { Departure } from '../domain/schedule.ts'
import type { DepartureCounts, DepartureRow, DepartureSeats, SeatCounts } from '../store/departures.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { Departure as DepartureData } from '../schemas/admin/departure.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** A departure as the operator sees it: where it comes from, its seats per status and the operator's fields. */
export interface DepartureRecord {
  tourId: string
  times: Departure
  capacity: number
  capacitySource: 'tour' | 'operator'
  seats: SeatCounts
  closed: boolean
  cancelled: boolean
  note: string | null
  extra: boolean
  orphaned: boolean
  /** The tour's minimum to run; null when it sets none. */
  minParticipants: number | null
  /** Its live people (src/store/departures.ts DepartureCounts) have reached the minimum. */
  guaranteed: boolean
  version: number
}

const NO_SEATS: DepartureCounts = { held: 0, requested: 0, confirmed: 0, completed: 0, no_show: 0, people: 0 }
export const seatTotal = (s: SeatCounts) => s.held + s.requested + s.confirmed + s.completed + s.no_show

/** Seats per status and live people counted from a departure's bookings (what the grouped read counts in SQL). */
export function countSeats(bookings: readonly BookingRecord[], now: string): DepartureCounts {
  const seats = { ...NO_SEATS }
  for (const b of bookings) {
    if (b.status === 'held') {
      if (b.hold_expires_at! > now) seats.held += b.seats
    } else if (b.status in seats) {
      seats[b.status as keyof SeatCounts] += b.seats
      seats.people += b.party
    }
  }
  return seats
}

/**
 * A departure's record from what is known of it: the schedule's entry (if it gives this
 * start), the stored row (if anyone booked it or an operator touched it) and its seats.
 */
export function departureRecord(catalog: InstanceCatalog, tourId: string, startKey: string, scheduled: Departure | undefined,
  row: DepartureRow | undefined, seats: DepartureSeats | DepartureCounts | undefined): DepartureRecord {
  const tour = catalog.tourById.get(tourId)?.catalog
  const counts = seats ?? NO_SEATS
  let times = scheduled
  if (!times) {
    const start = Temporal.Instant.fromEpochMilliseconds(Date.parse(startKey))
    // A tour gone from the catalog still has its bookings' end.
    const endAt = seats && 'end_at' in seats ? seats.end_at : null
    const minutes = tour?.duration_minutes ?? (endAt === null ? 0 : (Date.parse(endAt) - start.epochMilliseconds) / 60_000)
    times = departureAt(start, minutes, catalog.instance.timezone)
  }
  const extra = row?.extra === 1
  const minimum = minimumToRun(tour)
  return {
    tourId,
    times,
    capacity: row?.capacity ?? tour?.capacity ?? 0,
    capacitySource: row?.capacity_source === 'operator' ? 'operator' : 'tour',
    seats: { held: counts.held, requested: counts.requested, confirmed: counts.confirmed, completed: counts.completed, no_show: counts.no_show },
    closed: row?.closed === 1,
    cancelled: row?.cancelled === 1,
    note: row?.note ?? null,
    extra,
    orphaned: !scheduled && !extra && seatTotal(counts) > 0,
    minParticipants: minimum?.participants ?? null,
    guaranteed: isGuaranteed(minimum, counts.people),
    // A departure without a row is at the version a new row starts at.
    version: row?.version ?? 1,
  }
}

/**
 * The departure as the operator API answers it and its events carry it; its start and end were
 * formatted in the instance's zone when the record was made.
 */
export function departureData(record: DepartureRecord): DepartureData {
  const { seats } = record
  const taken = seats.held + seats.requested + seats.confirmed + seats.completed + seats.no_show
  return {
    tour_id: record.tourId,
    start: record.times.startText,
    end: record.times.endText,
    date: record.times.date,
    time: record.times.time,
    capacity: record.capacity,
    capacity_source: record.capacitySource,
    seats: { ...seats, free: Math.max(0, record.capacity - taken) },
    closed: record.closed,
    cancelled: record.cancelled,
    note: record.note,
    extra: record.extra,
    orphaned: record.orphaned,
    min_participants: record.minParticipants,
    guaranteed: record.guaranteed,
    version: record.version,
  }
}
