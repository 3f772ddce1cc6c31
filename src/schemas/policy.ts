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
}, {
  examples: [{
    cancellation: {
      id: 'flexible-48', version: 3,
      summary: 'Cancel free of charge up to 48 hours before the start. Cancelling between 48 and 24 hours before the start costs half the price; '
        + 'cancelling less than 24 hours before, or not turning up, costs the full price.',
      tiers: [{ hours_before_start: 48, fee_percent: 0 }, { hours_before_start: 24, fee_percent: 50 }, { hours_before_start: 0, fee_percent: 100 }],
      no_show_fee_percent: 100,
    },
    payment: { when: 'on_arrival', methods: ['cash', 'card'] },
    hold_minutes: 15,
  }],
}))
export type Policies = Static<typeof Policies>
