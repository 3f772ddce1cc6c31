/**
 * What an erased person's data becomes wherever a copy of it is kept (src/store/privacy.ts):
 * the booking's contact name and email read "erased" and its phone and free-text notes (the
 * operator's internal_note, the reseller's notes) are gone, as on the booking itself; a
 * contact message keeps only that it was received; a subscriber keeps nothing.
 */
export const ERASED = 'erased'

/** The booking's free-text notes about its guest ("wheelchair user"), emptied by an erasure. */
export const ERASED_NOTES = { internal_note: null, reseller_notes: null } as const

/** Audit fields holding those notes: the booking's columns, and OCTo's name for the reseller's. */
const NOTE_FIELDS: ReadonlySet<string> = new Set(['internal_note', 'reseller_notes', 'notes'])

const sameAddress = (value: unknown, email: string) => typeof value === 'string' && value.trim().toLowerCase() === email

/** An event's data with the person's details erased, by what the event is about. */
export function erasedEventData(subjectType: string, data: Record<string, unknown>): Record<string, unknown> {
  if (subjectType === 'booking') return { ...data, contact_name: ERASED, contact_email: ERASED, contact_phone: null, ...ERASED_NOTES }
  if (subjectType === 'contact') return { ...data, name: null, email: null, message: ERASED }
  return { ...data, email: ERASED, name: null }
}

/** Whether an event's data names `email` (lower case) as the person it is about. */
export function eventNames(subjectType: string, data: Record<string, unknown>, email: string): boolean {
  return sameAddress(subjectType === 'booking' ? data.contact_email : data.email, email)
}

/**
 * An audit entry's changed fields with the person's details erased: a booking's contact
 * fields, its notes (a note that was there reads "erased", so the history still shows that it
 * changed), and any field that holds the address itself (the recipient of a resend). Null when
 * nothing in them changes.
 */
export function erasedAuditFields(fields: Record<string, unknown>, email: string): Record<string, unknown> | null {
  let changed = false
  const erased = Object.fromEntries(Object.entries(fields).map(([key, value]) => {
    const replaced = key === 'contact_phone' ? null
      : NOTE_FIELDS.has(key) && value !== null ? ERASED
      : key === 'contact_name' || key === 'contact_email' || sameAddress(value, email) ? ERASED : value
    if (replaced !== value) changed = true
    return [key, replaced]
  }))
  return changed ? erased : null
}
