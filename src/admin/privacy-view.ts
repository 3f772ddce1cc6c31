import { formatStoredInZone } from '../domain/instant-format.ts'
import type { PersonalData } from '../services/privacy-requests.ts'
import { bookingView } from '../api/booking-view.ts'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'

/**
 * A privacy export as the operator API and the CLI show it. Session ids are left out: they
 * are the guest's credentials, not data about the person.
 */
export function personalDataView(data: PersonalData, catalog: InstanceCatalog) {
  const at = (stored: string) => formatStoredInZone(stored, catalog.instance.timezone)
  return {
    email: data.email.trim().toLowerCase(),
    contact_messages: data.contactMessages.map((m) => ({
      id: m.id, received_at: at(m.received_at), name: m.name, email: m.email, message: m.message,
      promo_code: m.promo_code, referral_code: m.referral_code, spam: m.spam === 1,
    })),
    newsletter_signups: data.newsletterSignups.map((s) => ({
      id: s.id, consented_at: at(s.consented_at), email: s.email, name: s.name, source: s.source,
      promo_code: s.promo_code, referral_code: s.referral_code, spam: s.spam === 1,
    })),
    newsletter_subscriptions: data.newsletterSubscriptions.map((s) => ({ email: s.email, name: s.name, consented_at: at(s.consented_at), source: s.source })),
    bookings: data.bookings.map((b) => ({ ...bookingView(b, catalog), channel: b.channel, internal_note: b.internal_note })),
    stored_answers: data.storedAnswers.map((a) => ({
      key: a.key, created_at: at(a.created_at), expires_at: at(a.expires_at), status_code: a.status_code, body: JSON.parse(a.body) as unknown,
    })),
    emails: data.emails.map((e) => ({
      id: e.id, kind: e.kind, booking_id: e.booking_id, subject: e.subject, text: e.text_body, state: e.state, created_at: at(e.created_at), sent_at: e.sent_at === null ? null : at(e.sent_at),
    })),
  }
}
