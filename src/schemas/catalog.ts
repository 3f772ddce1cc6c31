import { Type, type Static } from 'typebox'
import { PartySize } from './common.ts'
import { LanguageTag, MAX_INSTANCE_LANGUAGES } from './language.ts'
import { named } from './named.ts'
import { MAX_UNIT_QUANTITY, MAX_UNITS, UNIT_ID_PATTERN, UnitType } from './unit-type.ts'

/** The instance/catalog file an operator writes (TOURDESK_CONFIG). Validated on load. */

const LocalTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', maxLength: 5, description: 'HH:MM, 24-hour, operator local time' })
const LocalDate = Type.String({ format: 'date', maxLength: 10 })
const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', maxLength: 64 })
const Weekday = Type.Enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])
/** Bounds on everything the file (and the operator API, which takes the same schemas) accepts: OWASP API4:2023. */
const MAX_MONEY = 1_000_000_000
const MAX_TIMES = 288
const Money = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_MONEY, description })
const Origin = Type.String({ minLength: 1, maxLength: 300 })

export const ScheduleRule = named('ScheduleRule', Type.Object({
  from: LocalDate,
  until: LocalDate,
  weekdays: Type.Array(Weekday, { minItems: 1, maxItems: 7, uniqueItems: true }),
  times: Type.Array(LocalTime, { minItems: 1, maxItems: MAX_TIMES, uniqueItems: true }),
}, { additionalProperties: false }))

export const CatalogAddon = named('CatalogAddon', Type.Object({
  id: Slug,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  price: Money('minor units'),
  per: Type.Union([Type.Literal('booking'), Type.Literal('person')]),
  max_quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
}, { additionalProperties: false }))

const UnitQuantity = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_UNIT_QUANTITY, description })
const Age = (description: string) => Type.Integer({ minimum: 0, maximum: 120, description })

export const CatalogUnit = named('CatalogUnit', Type.Object({
  id: Type.String({ pattern: UNIT_ID_PATTERN, maxLength: 40, description: 'Unique in the tour; what a booking\'s units map names' }),
  type: UnitType,
  name: Type.String({ minLength: 1, maxLength: 200, description: 'What guests read, e.g. "Child"' }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  price: Money('for one of it, minor units'),
  seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: "What one takes of the departure's capacity (default 1; 0 for a child on a lap)" })),
  pax: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'How many people one counts (default 1; 4 for a family ticket of four)' })),
  min_age: Type.Optional(Age('Shown to guests; not checked')),
  max_age: Type.Optional(Age('Shown to guests; not checked')),
  min_quantity: Type.Optional(UnitQuantity('The fewest one booking takes when it takes any (default 1)')),
  max_quantity: Type.Optional(UnitQuantity('The most one booking takes (default: no bound but the party\'s)')),
  accompanied_by: Type.Optional(Type.Array(Type.String({ pattern: UNIT_ID_PATTERN, maxLength: 40 }), {
    maxItems: MAX_UNITS, uniqueItems: true, description: 'Units of the tour of which at least one must be booked with this one (a child needs an adult)' })),
}, { additionalProperties: false }))

/** One text's name and description in another language; either may be left out (docs/languages.md). */
const NameTranslation = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
}, { additionalProperties: false })

/** A map keyed by the instance's languages other than its default (src/domain/catalog-rules.ts holds the keys to them). */
const ByLanguage = <T extends ReturnType<typeof Type.Object>>(translation: T, description: string) => Type.Optional(Type.Record(LanguageTag(), translation,
  { additionalProperties: false, maxProperties: MAX_INSTANCE_LANGUAGES, description }))

export const TourTranslation = named('TourTranslation', Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  summary: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Type.String({ maxLength: 10000 })),
  meeting_point: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false })),
  units: Type.Optional(Type.Record(Type.String({ pattern: UNIT_ID_PATTERN, maxLength: 40 }), NameTranslation,
    { additionalProperties: false, maxProperties: MAX_UNITS, description: "By the unit's id" })),
  addons: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$', maxLength: 64 }), NameTranslation,
    { additionalProperties: false, maxProperties: 50, description: "By the add-on's id" })),
}, { additionalProperties: false, description: "A tour's texts in one language; a field left out is read in the default language" }))

export const CatalogTour = named('CatalogTour', Type.Object({
  id: Slug,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  summary: Type.String({ maxLength: 500 }),
  description: Type.String({ maxLength: 10000 }),
  duration_minutes: Type.Integer({ minimum: 1, maximum: 10080 }),
  meeting_point: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200 }),
    address: Type.String({ maxLength: 500 }),
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
  }, { additionalProperties: false }),
  languages: Type.Array(LanguageTag(), { minItems: 1, maxItems: 50 }),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 }),
  price: Money('per person, minor units; with units, the first unit\'s price'),
  units: Type.Optional(Type.Array(CatalogUnit, { minItems: 1, maxItems: MAX_UNITS,
    description: 'Price categories, in the order guests see them; the first is the default one (one seat, one person). Without units the tour has one, "person", at its price' })),
  party: Type.Object({ min: PartySize, max: PartySize }, { additionalProperties: false }),
  capacity: Type.Integer({ minimum: 1, maximum: 100000 }),
  cutoff_minutes: Type.Integer({ minimum: 0, maximum: 525600, description: 'at most a year' }),
  confirmation: Type.Union([Type.Literal('instant'), Type.Literal('on_request')]),
  addons: Type.Array(CatalogAddon, { maxItems: 50 }),
  schedule: Type.Array(ScheduleRule, { minItems: 1, maxItems: 100 }),
  blackouts: Type.Array(LocalDate, { maxItems: 2000 }),
  min_participants: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000,
    description: 'The fewest guests a departure needs to run, at most capacity. Reaching it makes the departure guaranteed; below it at the deadline, it is at risk' })),
  min_participants_deadline_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720,
    description: 'Hours before the start at which the minimum is decided (default 24); only with min_participants' })),
  archived: Type.Optional(Type.Boolean({ description: 'Hidden from guests; its bookings stand. A tour with bookings is archived, never deleted.' })),
  translations: ByLanguage(TourTranslation, "The tour's texts in the instance's other languages, by language, e.g. {\"pt\": {\"title\": \"…\"}}"),
}, { additionalProperties: false }))

export const CatalogPromoCode = named('CatalogPromoCode', Type.Object({
  code: Type.String({ pattern: '^[A-Z0-9-]{2,64}$', maxLength: 64, description: 'matched case-insensitively' }),
  kind: Type.Union([Type.Literal('percent'), Type.Literal('fixed')]),
  value: Type.Integer({ minimum: 1, maximum: MAX_MONEY, description: 'percent 1-100, or minor units off' }),
  valid_from: LocalDate,
  valid_until: LocalDate,
  tour_ids: Type.Optional(Type.Array(Slug, { maxItems: 1000 })),
  max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000000 })),
}, { additionalProperties: false }))

export const CatalogPolicy = named('CatalogPolicy', Type.Object({
  id: Slug,
  version: Type.Integer({ minimum: 1, maximum: 1000000 }),
  summary: Type.String({ minLength: 1, maxLength: 2000 }),
  tiers: Type.Array(Type.Object({
    hours_before_start: Type.Integer({ minimum: 0, maximum: 8760 }),
    fee_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  }, { additionalProperties: false }), { minItems: 1, maxItems: 20 }),
  no_show_fee_percent: Type.Integer({ minimum: 0, maximum: 100 }),
  translations: ByLanguage(Type.Object({ summary: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) }, { additionalProperties: false }),
    'The summary in the instance\'s other languages, by language, e.g. {"pt": {"summary": "…"}}'),
}, { additionalProperties: false }))

const BucketPolicy = Type.Object({
  burst: Type.Integer({ minimum: 1, maximum: 1000000, description: 'requests allowed at once' }),
  per_minute: Type.Integer({ minimum: 1, maximum: 1000000, description: 'tokens added back per minute' }),
}, { additionalProperties: false })

export const CatalogRateLimits = named('CatalogRateLimits', Type.Object({
  read: Type.Optional(BucketPolicy),
  booking: Type.Optional(BucketPolicy),
  forms: Type.Optional(BucketPolicy),
  octo: Type.Optional(BucketPolicy),
}, { additionalProperties: false }))

export const CatalogInstance = named('CatalogInstance', Type.Object({
  prefix: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', maxLength: 63 }),
  ref: Type.String({ pattern: '^[a-z0-9]{8}$', maxLength: 8 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', maxLength: 3 }),
  languages: Type.Optional(Type.Array(LanguageTag(), { minItems: 1, maxItems: MAX_INSTANCE_LANGUAGES, uniqueItems: true,
    description: 'The languages guests read the catalog in, the first its default, in which every text is written (default ["en"]); the others may have translations' })),
  horizon_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 1095 })),
  hold_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 1440 })),
  decoys: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })),
  allowed_origins: Type.Optional(Type.Array(Origin, { maxItems: 50 })),
  cors_origins: Type.Optional(Type.Array(Origin, { maxItems: 50 })),
  rate_limits: Type.Optional(CatalogRateLimits),
  phone_region: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', maxLength: 2, description: 'ISO 3166 region for phone numbers written without +' })),
  request_decision_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'Hours the operator has to confirm or decline a request before the system declines it (default 24)' })),
  payment_methods: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 20 }),
  email_from: Type.Optional(Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\r\\n]*@[^\\r\\n]*$',
    description: 'The From of every email and the ORGANIZER of its calendar file, an address or "Name <address>" (default: the instance name at '
      + 'no-reply@ the host of TOURDESK_PUBLIC_URL when that is a domain name; else the first of operator_emails, else no-reply@localhost)' })),
  operator_emails: Type.Optional(Type.Array(Type.String({ format: 'email', maxLength: 254 }), { maxItems: 20,
    description: "Who gets the operator's emails (default: the instance's active managers)" })),
  reminder_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 336, description: 'Hours before the start that guests are reminded (default 24; 0 sends no reminder)' })),
  emails_per_recipient_per_hour: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'At most this many emails go to one address in an hour (default 5)' })),
  newsletter_double_opt_in: Type.Optional(Type.Boolean({ description: 'A sign-up is subscribed only once its confirmation link is opened (default: on when SMTP_URL is set)' })),
  cancellation_policy: CatalogPolicy,
  promo_codes: Type.Array(CatalogPromoCode, { maxItems: 10000 }),
  tours: Type.Array(CatalogTour, { minItems: 1, maxItems: 100000 }),
}, { additionalProperties: false }))

export const CatalogFile = Type.Object({
  instances: Type.Array(CatalogInstance, { minItems: 1, maxItems: 10000 }),
}, { additionalProperties: false })

export type CatalogTour = Static<typeof CatalogTour>
export type CatalogAddon = Static<typeof CatalogAddon>
export type CatalogUnit = Static<typeof CatalogUnit>
export type CatalogInstance = Static<typeof CatalogInstance>
export type CatalogPromoCode = Static<typeof CatalogPromoCode>
export type CatalogPolicy = Static<typeof CatalogPolicy>
export type TourTranslation = Static<typeof TourTranslation>
export type ScheduleRule = Static<typeof ScheduleRule>
