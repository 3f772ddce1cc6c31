import { Type, type Static } from 'typebox'
import { Instant, SessionId } from './common.ts'
import { named } from './named.ts'

export const SessionGrant = named('SessionGrant', Type.Object({
  session: SessionId,
  csrf_token: Type.String({ description: 'Send as X-CSRF-Token on POST and DELETE /booking' }),
  expires_at: Instant,
}))
export type SessionGrant = Static<typeof SessionGrant>
