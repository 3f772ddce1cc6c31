import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import type { BookingRow } from '../store/bookings.ts'
import type { BookingFacts } from './email-messages.ts'

/**
 * The booking as a calendar event (RFC 5545): its UID is the booking's, so every file for a
 * booking updates the one event in the guest's calendar, and its SEQUENCE is the booking's
 * version, which rises on every change. A cancelled booking's file cancels the event.
 * Times are UTC instants: the calendar shows them in the reader's zone, and DTSTART is the
 * booking's start exactly.
 */
export function bookingCalendar(row: BookingRow, facts: BookingFacts, operator: { name: string, domain: string }, manageUrl: string | null): {
  method: 'REQUEST' | 'CANCEL'
  content: string
} {
  const cancelled = row.status === 'cancelled' || row.status === 'declined'
  const method = cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST
  const calendar = ical({ prodId: { company: 'tourdesk', product: 'tourdesk', language: 'EN' }, name: operator.name, method })
  calendar.createEvent({
    id: `${row.id}@${operator.domain}`,
    sequence: row.version,
    start: new Date(row.start_at),
    end: new Date(row.end_at),
    stamp: new Date(row.updated_at),
    summary: `${facts.tour} (${operator.name})`,
    location: facts.meetingPoint,
    description: [`Booking ${facts.code}`, `Party: ${facts.party}`, `Total, due on arrival: ${facts.total}`, ...(manageUrl ? [`Manage: ${manageUrl}`] : [])].join('\n'),
    url: manageUrl,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  })
  return { method: cancelled ? 'CANCEL' : 'REQUEST', content: calendar.toString() }
}
