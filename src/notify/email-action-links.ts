import type { Temporal } from 'temporal-polyfill'
import type { InstanceCatalog } from '../catalog/instance-catalog.ts'
import type { BookingRecord } from '../domain/booking.ts'
import { toStoredInstant } from '../domain/instant-format.ts'
import type { Actor } from '../store/audit.ts'
import type { Tables } from '../store/tables.ts'
import type { Store } from '../store/store.ts'
import type { StaffAuth } from '../services/staff-auth.ts'
import { hashActionToken } from './email-projection.ts'

export interface ActionLinkFound {
  link: Tables['email_action_links']
  booking: BookingRecord
  /** The staff member the link was sent to, while they may still act (staff-auth.ts, emailLinkActor). */
  actor: Actor
}

/**
 * The confirm and decline links of the operator's new-request email, read and spent for
 * the page that answers them (src/web/email-action-page.ts), so that the page never reads
 * or writes the store itself (docs/architecture.md).
 */
export interface EmailActionLinks {
  /** The link, its booking and whom it names; null for a token we never sent or whose recipient may no longer act. */
  find(catalog: InstanceCatalog, token: string): Promise<ActionLinkFound | null>
  /** Spends the link once; false when it was spent already (by the other tab, or the other link's click). */
  spend(catalog: InstanceCatalog, token: string, now: Temporal.Instant): Promise<boolean>
}

export function emailActionLinks(store: Store, staff: StaffAuth): EmailActionLinks {
  return {
    async find(catalog, token) {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null
      const link = await store.read(() => store.emails.actionLink(catalog.instance.ref, hashActionToken(token)))
      if (!link) return null
      const actor = await staff.emailLinkActor(catalog.instance.ref, link.recipient, catalog.instance.operator_emails ?? [])
      if (!actor) return null
      const booking = await store.read(() => store.bookings.byId(catalog.instance.ref, link.booking_id))
      return booking ? { link, booking, actor } : null
    },
    spend(catalog, token, now) {
      return store.write(() => store.emails.useActionLink(catalog.instance.ref, hashActionToken(token), toStoredInstant(now)))
    },
  }
}
