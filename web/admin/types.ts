/** The operator API's records as the back office reads them: the types of their schemas (src/schemas/admin). */
import type { Static } from 'typebox'
import type { OperatorEvent as OperatorEventSchema } from '../../src/schemas/admin/event.ts'
import type { WebhookDelivery as WebhookDeliverySchema } from '../../src/schemas/admin/webhook.ts'

export type { Departure, DepartureManifest, ManifestEntry } from '../../src/schemas/admin/departure.ts'
export type { OperatorBooking } from '../../src/schemas/admin/booking.ts'
export type OperatorEvent = Static<typeof OperatorEventSchema>
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>
