import { Type, type Static } from 'typebox'
import { Currency, SessionId } from './common.ts'
import { named } from './named.ts'

export const IndexDocument = named('IndexDocument', Type.Object({
  name: Type.String(),
  ref: Type.String({ pattern: '^[a-z0-9]{8}$' }),
  session: SessionId,
  timezone: Type.String({ description: 'IANA time zone of the operator' }),
  currency: Currency,
  api_version: Type.String(),
  endpoints: Type.Array(Type.String()),
}, {
  examples: [{
    name: 'Alfama & Tejo Tours', ref: 'lx4t7k2m', session: 'k3v9x2m7q1pz', timezone: 'Europe/Lisbon', currency: 'EUR', api_version: '1.4.0',
    endpoints: [
      'GET /api/lisbon/tours?q=', 'GET /api/lisbon/tours/{id}', 'GET /api/lisbon/availability?tour=&date=&party=&days=', 'POST /api/lisbon/session',
      'GET|POST|DELETE /api/lisbon/booking', 'POST /api/lisbon/checkout', 'POST /api/lisbon/newsletter', 'POST /api/lisbon/contact',
      'GET /api/lisbon/policies', 'GET /api/lisbon/openapi.json',
    ],
  }],
}))
export type IndexDocument = Static<typeof IndexDocument>
