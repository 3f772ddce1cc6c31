import { Type, type Static } from 'typebox'

/** The event types of the operator's event feed and webhooks (docs/events-and-webhooks.md, "Events"). */
export const EVENT_TYPES = [
  'booking.requested', 'booking.confirmed', 'booking.declined', 'booking.cancelled', 'booking.changed', 'booking.checked_in', 'booking.no_show',
  'departure.closed', 'departure.reopened', 'departure.cancelled', 'departure.at_risk', 'departure.guaranteed',
  'contact.received', 'newsletter.subscribed',
] as const
export const EventType = Type.Enum(EVENT_TYPES)
export type EventType = Static<typeof EventType>

/** The events a booking's own changes report. */
export type BookingEventType = Extract<EventType, `booking.${string}`>

export const isEventType = (text: string): text is EventType => (EVENT_TYPES as readonly string[]).includes(text)
