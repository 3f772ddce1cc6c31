import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import { calendarFile } from './calendar-file.ts'
import { partyFacts, type BookingFacts } from './email-facts.ts'
import type { EmailLanguage } from './email-language.ts'
import type { BookingRecord } from '../domain/booking.ts'

/** Who sends the calendar file: the instance, by the name and address its emails come from (src/notify/sender-address.ts). */
export interface CalendarOrganizer {
  name: string
  address: string
  /** The host of TOURDESK_PUBLIC_URL, which makes the event's UID unique to this service. */
  domain: string
}

/**
 * The booking as a calendar event (RFC 5545): its UID is the booking's, so every file for a
 * booking updates the one event in the guest's calendar, and its SEQUENCE is the booking's
 * version, which rises on every change. A cancelled booking's file cancels the event.
 * Times are UTC instants: the calendar shows them in the reader's zone, and DTSTART is the
 * booking's start exactly. iTIP (RFC 5546, 3.2.2 and 3.2.5) requires an ORGANIZER in a REQUEST
 * and a CANCEL, and at least one ATTENDEE in a REQUEST: the organizer is the instance, whose
 * address is the email's From; the attendee is the guest, already accepted and asked for no
 * reply (the booking is the answer), so a calendar offers no Accept or Decline to send.
 * Its SUMMARY and DESCRIPTION are in the email's language, as `facts` are.
 */
export function bookingCalendar(row: BookingRecord, facts: BookingFacts, language: EmailLanguage, organizer: CalendarOrganizer, manageUrl: string | null): {
  method: 'REQUEST' | 'CANCEL'
  content: string
} {
  const cancelled = row.status === 'cancelled' || row.status === 'declined'
  const method = cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST
  const calendar = ical({ prodId: { company: 'tourdesk', product: 'tourdesk', language: 'EN' }, name: organizer.name, method })
  const guest = row.contact_email
  const { texts } = language
  calendar.createEvent({
    id: `${row.id}@${organizer.domain}`,
    sequence: row.version,
    start: new Date(row.start_at),
    end: new Date(row.end_at),
    stamp: new Date(row.updated_at),
    summary: `${facts.tour} (${organizer.name})`,
    location: facts.meetingPoint,
    description: [texts.calendar.booking(facts.code), ...(facts.guidedIn ? [`${texts.facts.guidedIn}: ${facts.guidedIn}`] : []),
      ...partyFacts(facts, texts).map(([label, value]) => `${label}: ${value}`),
      ...facts.addons.map((addon) => `${texts.facts.addon}: ${addon}`), ...(facts.due === null ? [] : [`${texts.facts.dueOnArrival}: ${facts.due}`]),
      ...(manageUrl ? [`${texts.calendar.manage}: ${manageUrl}`] : [])].join('\n'),
    url: manageUrl,
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: organizer.name, email: organizer.address },
    attendees: guest ? [{ email: guest, name: facts.name || null, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED, rsvp: false }] : [],
  })
  return { method: cancelled ? 'CANCEL' : 'REQUEST', content: calendarFile(calendar) }
}
