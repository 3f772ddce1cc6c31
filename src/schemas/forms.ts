import { Type, type Static } from 'typebox'
import { Instant, SessionId } from './common.ts'
import { MarketingFields } from './decoy-fields.ts'
import { named } from './named.ts'

const Email = Type.String({ minLength: 3, maxLength: 254, format: 'email', pattern: '^[^\\r\\n]+$' })

export const ContactRequest = named('ContactRequest', Type.Object({
  message: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S', description: 'At most 5,000 characters (not bytes)' }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Email),
  session: Type.Optional(SessionId),
  ...MarketingFields,
}, { additionalProperties: false }))
export type ContactRequest = Static<typeof ContactRequest>

export const ContactReceipt = named('ContactReceipt', Type.Object({
  id: Type.String(),
  status: Type.Literal('received'),
  received_at: Instant,
}))

export const NewsletterRequest = named('NewsletterRequest', Type.Object({
  email: Email,
  name: Type.Optional(Type.String({ maxLength: 200 })),
  session: Type.Optional(SessionId),
  ...MarketingFields,
}, { additionalProperties: false }))
export type NewsletterRequest = Static<typeof NewsletterRequest>

export const NewsletterReceipt = named('NewsletterReceipt', Type.Object({
  status: Type.Literal('subscribed', { description: 'The same answer whether the address is new or already subscribed' }),
}))
