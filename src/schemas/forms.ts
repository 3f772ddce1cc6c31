import { Type, type Static } from 'typebox'
import { Instant, SessionId } from './common.ts'
import { decoyFields, MarketingFields } from './decoy-fields.ts'
import { named } from './named.ts'

const Email = Type.String({ minLength: 3, maxLength: 254, format: 'email', pattern: '^[^\\r\\n]+$' })

export const ContactRequest = named('ContactRequest', Type.Object({
  message: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S', description: 'At most 5,000 characters (not bytes)' }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  email: Type.Optional(Email),
  session: Type.Optional(SessionId),
  ...MarketingFields,
  ...decoyFields('the message is kept as spam and never delivered'),
}, { additionalProperties: false, examples: [{ message: 'Can we bring a pushchair on the Alfama walk?', name: 'Ana Silva', email: 'ana@example.pt' }] }))
export type ContactRequest = Static<typeof ContactRequest>

export const ContactReceipt = named('ContactReceipt', Type.Object({
  id: Type.String(),
  status: Type.Literal('received'),
  received_at: Instant,
}, { examples: [{ id: 'fadef1f0-7f37-4724-856d-00321cafb23c', status: 'received', received_at: '2026-06-01T09:00:00+01:00' }] }))

export const NewsletterRequest = named('NewsletterRequest', Type.Object({
  email: Email,
  name: Type.Optional(Type.String({ maxLength: 200 })),
  session: Type.Optional(SessionId),
  ...MarketingFields,
  ...decoyFields('the address is never subscribed'),
}, { additionalProperties: false, examples: [{ email: 'ana@example.pt', name: 'Ana Silva' }] }))
export type NewsletterRequest = Static<typeof NewsletterRequest>

export const NewsletterConfirmation = Type.Object({
  token: Type.String({ minLength: 20, maxLength: 300, pattern: '^[A-Za-z0-9_-]+$', description: 'The token of the confirmation email\'s link' }),
}, { additionalProperties: false })

export const NewsletterReceipt = named('NewsletterReceipt', Type.Object({
  status: Type.Literal('subscribed', { description: 'The same answer whether the address is new or already subscribed' }),
}, { examples: [{ status: 'subscribed' }] }))
