import { Type, type Static } from 'typebox'

/** The instance/catalog file an operator writes (TOURDESK_CONFIG). Validated on load. */

const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour, operator local time' })
const LocalDate = Type.String({ format: 'date' })
const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' })
const Weekday = Type.Enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])

export const ScheduleRule = Type.Object({
  from: LocalDate,
  until: LocalDate,
  weekdays: Type.Array(Weekday, { minItems: 1, uniqueItems: true }),
  times: Type.Array(LocalTime, { minItems: 1, uniqueItems: true }),
}, { additionalProperties: false })

export const CatalogAddon = Type.Object({
  id: Slug,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  price: Type.Integer({ minimum: 0, description: 'minor units' }),
  per: Type.Union([Type.Literal('booking'), Type.Literal('person')]),
  max_quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
}, { additionalProperties: false })

export const CatalogTour = Type.Object({
  id: Slug,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  summary: Type.String({ maxLength: 500 }),
  description: Type.String({ maxLength: 10000 }),
  duration_minutes: Type.Integer({ minimum: 1, maximum: 10080 }),
  meeting_point: Type.Object({
    name: Type.String({ minLength: 1 }),
    address: Type.String(),
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
  }, { additionalProperties: false }),
  languages: Type.Array(Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]+)*$' }), { minItems: 1 }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 64 })),
  price: Type.Integer({ minimum: 0, description: 'per person, minor units' }),
  party: Type.Object({ min: Type.Integer({ minimum: 1 }), max: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  capacity: Type.Integer({ minimum: 1, maximum: 100000 }),
  cutoff_minutes: Type.Integer({ minimum: 0 }),
  confirmation: Type.Union([Type.Literal('instant'), Type.Literal('on_request')]),
  addons: Type.Array(CatalogAddon),
  schedule: Type.Array(ScheduleRule, { minItems: 1 }),
  blackouts: Type.Array(LocalDate),
  archived: Type.Optional(Type.Boolean({ description: 'Hidden from guests; its bookings stand. A tour with bookings is archived, never deleted.' })),
}, { additionalProperties: false })

export const CatalogPromoCode = Type.Object({
  code: Type.String({ pattern: '^[A-Z0-9-]{2,64}$', description: 'matched case-insensitively' }),
  kind: Type.Union([Type.Literal('percent'), Type.Literal('fixed')]),
  value: Type.Integer({ minimum: 1, description: 'percent 1-100, or minor units off' }),
  valid_from: LocalDate,
  valid_until: LocalDate,
  tour_ids: Type.Optional(Type.Array(Slug)),
  max_uses: Type.Optional(Type.Integer({ minimum: 1 })),
}, { additionalProperties: false })

export const CatalogPolicy = Type.Object({
  id: Slug,
  version: Type.Integer({ minimum: 1 }),
  summary: Type.String({ minLength: 1 }),
  tiers: Type.Array(Type.Object({
    hours_before_start: Type.Integer({ minimum: 0 }),
    fee_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  }, { additionalProperties: false }), { minItems: 1 }),
  no_show_fee_percent: Type.Integer({ minimum: 0, maximum: 100 }),
}, { additionalProperties: false })

const BucketPolicy = Type.Object({
  burst: Type.Integer({ minimum: 1, description: 'requests allowed at once' }),
  per_minute: Type.Integer({ minimum: 1, description: 'tokens added back per minute' }),
}, { additionalProperties: false })

export const CatalogRateLimits = Type.Object({
  read: Type.Optional(BucketPolicy),
  booking: Type.Optional(BucketPolicy),
  forms: Type.Optional(BucketPolicy),
}, { additionalProperties: false })

export const CatalogInstance = Type.Object({
  prefix: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
  ref: Type.String({ pattern: '^[a-z0-9]{8}$' }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  timezone: Type.String({ minLength: 1 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  horizon_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 1095 })),
  hold_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  decoys: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  allowed_origins: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  cors_origins: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  rate_limits: Type.Optional(CatalogRateLimits),
  phone_region: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 region for phone numbers written without +' })),
  request_decision_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'Hours the operator has to confirm or decline a request before the system declines it (default 24)' })),
  payment_methods: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  cancellation_policy: CatalogPolicy,
  promo_codes: Type.Array(CatalogPromoCode),
  tours: Type.Array(CatalogTour, { minItems: 1 }),
}, { additionalProperties: false })

export const CatalogFile = Type.Object({
  instances: Type.Array(CatalogInstance, { minItems: 1 }),
}, { additionalProperties: false })

export type CatalogTour = Static<typeof CatalogTour>
export type CatalogAddon = Static<typeof CatalogAddon>
export type CatalogInstance = Static<typeof CatalogInstance>
export type CatalogPromoCode = Static<typeof CatalogPromoCode>
export type CatalogPolicy = Static<typeof CatalogPolicy>
export type ScheduleRule = Static<typeof ScheduleRule>
