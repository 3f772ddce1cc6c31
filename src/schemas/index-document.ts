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
}))
export type IndexDocument = Static<typeof IndexDocument>
