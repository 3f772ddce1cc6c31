import { Type, type Static } from 'typebox'
import { named } from './named.ts'

export const CancellationPolicy = named('CancellationPolicy', Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  summary: Type.String(),
  tiers: Type.Array(Type.Object({
    hours_before_start: Type.Integer(),
    fee_percent: Type.Integer(),
  }), { description: 'Cancelling at least hours_before_start before the start costs fee_percent of the total' }),
  no_show_fee_percent: Type.Integer(),
}))

export const Policies = named('Policies', Type.Object({
  cancellation: CancellationPolicy,
  payment: Type.Object({
    when: Type.Literal('on_arrival'),
    methods: Type.Array(Type.String()),
  }),
  hold_minutes: Type.Number({ description: 'How long a held booking keeps its seats' }),
}))
export type Policies = Static<typeof Policies>
