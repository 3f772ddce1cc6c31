import { Type, type Static } from 'typebox'
import { SessionId } from './common.ts'
import { named } from './named.ts'

export const SessionGrant = named('SessionGrant', Type.Object({
  session: SessionId,
  csrf_token: Type.String({ description: 'Send as X-CSRF-Token on POST and DELETE /booking' }),
  expires_at: Type.String({
    format: 'date-time',
    description: 'When the session ends: 24 hours after it was made while it has never held a booking, 30 days after its latest hold once it has',
  }),
}, { examples: [{ session: 'k3v9x2m7q1pz', csrf_token: 'P5v3mQ0r2b8Xz1KcLw9tYh6Ue4Ns7Ad0Gf2Jk5Ri8Oc', expires_at: '2026-06-02T09:00:00+01:00' }] }))
export type SessionGrant = Static<typeof SessionGrant>
