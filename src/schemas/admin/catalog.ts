import { Type, type Static, type TSchema } from 'typebox'
import { CatalogInstance, CatalogPolicy, CatalogPromoCode, CatalogTour } from '../catalog.ts'
import { Instant, Nullable } from '../common.ts'
import { named } from '../named.ts'
import { PageQuery } from './page.ts'

/**
 * The operator API's catalog routes (docs/operator-api.md, "Catalog, settings and policy"): bodies
 * and answers in the catalog file's format, built from the schemas of src/schemas/catalog.ts,
 * so the file, the API and openapi.json accept exactly the same.
 */

const tourFields = CatalogTour.properties
const promoFields = CatalogPromoCode.properties

export const DryRunQuery = Type.Object({
  dry_run: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], {
    description: 'true: check the edit and answer what it would change, changing nothing (catalog_version stays)',
  })),
}, { additionalProperties: false })

export const TourParams = Type.Object({
  instance: Type.String(),
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'Tour id' }),
})

export const PromoCodeParams = Type.Object({
  instance: Type.String(),
  code: Type.String({ minLength: 2, maxLength: 64, pattern: '^[A-Za-z0-9-]{2,64}$', description: 'The promo code, in any case' }),
})

export const TourListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export const PromoCodeListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

/** Adult, child and infant on a lap; the tour's price is the adult's (src/domain/catalog-rules.ts). */
const exampleUnits = (adultPrice: number) => [
  { id: 'adult', type: 'adult', name: 'Adult', price: adultPrice, min_age: 13 },
  { id: 'child', type: 'child', name: 'Child', price: 1200, min_age: 4, max_age: 12, accompanied_by: ['adult'] },
  { id: 'infant', type: 'infant', name: 'Infant', description: 'On a lap, no seat', price: 0, seats: 0, max_age: 3, max_quantity: 2, accompanied_by: ['adult'] },
]

const TOUR_EXAMPLE = {
  id: 'tram-28-ride',
  title: 'Tram 28 Ride & Graça Viewpoints',
  summary: 'The yellow tram up to Graça, then three viewpoints on foot.',
  description: 'We ride tram 28 from Martim Moniz to Graça and walk back down through three miradouros.',
  duration_minutes: 120,
  meeting_point: { name: 'Martim Moniz tram stop', address: 'Praça Martim Moniz, 1100-341 Lisboa', lat: 38.7155, lng: -9.1359 },
  languages: ['en', 'pt'],
  tags: ['tram', 'viewpoints'],
  price: 2500,
  units: exampleUnits(2500),
  party: { min: 1, max: 8 },
  capacity: 12,
  cutoff_minutes: 60,
  confirmation: 'instant',
  addons: [{ id: 'pastry-stop', name: 'Pastry stop', description: 'A pastel de nata on the way.', price: 200, per: 'person', max_quantity: 8 }],
  schedule: [{ from: '2026-06-01', until: '2026-10-31', weekdays: ['mon', 'wed', 'fri'], times: ['10:00', '15:00'] }],
  blackouts: ['2026-06-13'],
}

/** A tour as the operator sees it: the catalog file's tour, `archived` always told. */
export const OperatorTour = named('OperatorTour', Type.Object({
  ...tourFields,
  archived: Type.Boolean({ description: 'Hidden from guests (404 and left out of lists); its bookings and departures stand' }),
}, { examples: [{ ...TOUR_EXAMPLE, archived: false }] }))

export const OperatorTourList = named('OperatorTourList', Type.Object({
  tours: Type.Array(OperatorTour),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
}))

/** POST /tours: a new tour in the catalog file's format. */
export const NewTour = named('NewTour', Type.Object({ ...tourFields }, { additionalProperties: false, examples: [TOUR_EXAMPLE] }))

const { id: _id, ...tourFieldsButId } = tourFields
const tourId = Type.Optional(Type.String({ ...tourFields.id, description: 'May be left out; if given, the id in the path (a tour keeps its id)' }))

/** PUT /tours/{id}: the whole tour. */
export const TourReplacement = named('TourReplacement', Type.Object({ ...tourFieldsButId, id: tourId }, {
  additionalProperties: false,
  examples: [{ ...TOUR_EXAMPLE, price: 2800, units: exampleUnits(2800) }],
}))

const nullableFields = Type.Required(Type.Pick(CatalogTour, ['min_participants', 'min_participants_deadline_hours', 'translations', 'units'])).properties

/** PATCH /tours/{id}: top-level fields replace the tour's (a nested object, such as party, units or translations, is given whole); null removes the minimum to run, the translations or the units. */
export const TourPatch = named('TourPatch', Type.Object({
  ...Type.Partial(Type.Object(tourFieldsButId)).properties,
  id: tourId,
  min_participants: Type.Optional(Type.Union([nullableFields.min_participants, Type.Null()], { description: 'The minimum to run; null removes it' })),
  min_participants_deadline_hours: Type.Optional(Type.Union([nullableFields.min_participants_deadline_hours, Type.Null()],
    { description: 'Hours before the start at which the minimum is decided; null: the default, 24' })),
  translations: Type.Optional(Type.Union([nullableFields.translations, Type.Null()], { description: "The tour's texts in other languages, given whole; null removes every translation" })),
  units: Type.Optional(Type.Union([nullableFields.units, Type.Null()], {
    description: 'The price categories, given whole (the first one\'s price must be the tour\'s price: send both when it changes); '
      + 'null removes them: the tour goes back to one implicit unit, "person", at its price' })),
}, {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ price: 2100, capacity: 10 }],
}))

/** A promo code as the operator sees it: the catalog file's, and how often it has been used. */
export const OperatorPromoCode = named('OperatorPromoCode', Type.Object({
  ...promoFields,
  uses: Type.Integer({ minimum: 0, description: 'Bookings made with it, the count max_uses is held against (counted at checkout; a cancelled or declined booking gives its use back)' }),
}))

export const OperatorPromoCodeList = named('OperatorPromoCodeList', Type.Object({
  promo_codes: Type.Array(OperatorPromoCode),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
}))

const PROMO_EXAMPLE = { code: 'FAIR-2026', kind: 'percent', value: 15, valid_from: '2026-09-10', valid_until: '2026-09-20', max_uses: 200 }

/** POST /promo-codes: a new code in the catalog file's format. */
export const NewPromoCode = named('NewPromoCode', Type.Object({ ...promoFields }, { additionalProperties: false, examples: [PROMO_EXAMPLE] }))

const { code: _code, tour_ids: tourIds, max_uses: maxUses, ...requiredPromoFields } = Type.Required(CatalogPromoCode).properties
/** A value, or null to unset it (JSON merge patch). */
const OrNull = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description })

/** PATCH /promo-codes/{code}: JSON merge patch of the code's fields; null removes tour_ids or max_uses. */
export const PromoCodePatch = named('PromoCodePatch', Type.Object({
  ...Type.Partial(Type.Object(requiredPromoFields)).properties,
  tour_ids: Type.Optional(OrNull(tourIds, 'The tours it applies to; null: every tour')),
  max_uses: Type.Optional(OrNull(maxUses, 'At most this many uses; null: no limit')),
}, { additionalProperties: false, minProperties: 1, examples: [{ valid_until: '2026-09-30', max_uses: null }] }))

const { id: _policyId, version: _version, ...policyTerms } = CatalogPolicy.properties

/** PUT /policy: the terms; the service gives them the next version. */
export const PolicyTerms = named('PolicyTerms', Type.Object({ ...policyTerms }, {
  additionalProperties: false,
  examples: [{
    summary: 'Cancel free of charge up to 72 hours before the start; after that, the full price.',
    tiers: [{ hours_before_start: 72, fee_percent: 0 }, { hours_before_start: 0, fee_percent: 100 }],
    no_show_fee_percent: 100,
  }],
}))

/** The instance's own fields that a manager edits (prefix and ref, its addresses, stay). */
const SETTING_NAMES = ['name', 'timezone', 'currency', 'languages', 'horizon_days', 'hold_minutes', 'decoys', 'allowed_origins', 'cors_origins', 'rate_limits',
  'phone_region', 'payment_methods', 'request_decision_hours', 'email_from', 'operator_emails', 'reminder_hours', 'emails_per_recipient_per_hour',
  'newsletter_double_opt_in'] as const
export type SettingName = typeof SETTING_NAMES[number]
/** Settings that every instance has; the others may be left unset, which means their default. */
const REQUIRED_SETTINGS = new Set<SettingName>(['name', 'timezone', 'currency', 'payment_methods'])
export { SETTING_NAMES }

/** Each setting's schema as the file has it, none of them optional. */
const settingFields = Type.Required(Type.Pick(CatalogInstance, [...SETTING_NAMES])).properties as Record<SettingName, TSchema>
const DEFAULTS = 'null: unset, the default applies (docs/catalog.md)'
const settingOrNull = (name: SettingName) => (REQUIRED_SETTINGS.has(name) ? settingFields[name] : OrNull(settingFields[name], DEFAULTS))

export const Settings = named('Settings', Type.Object(Object.fromEntries(SETTING_NAMES.map((name) => [name, settingOrNull(name)])), {
  description: "The instance's own fields, as in the catalog file",
}))

export const SettingsPatch = named('SettingsPatch', Type.Object(Object.fromEntries(SETTING_NAMES.map((name) => [name, Type.Optional(settingOrNull(name))])), {
  additionalProperties: false,
  minProperties: 1,
  description: 'JSON merge patch of the settings: the fields given replace the current ones; null unsets an optional one',
  examples: [{ name: 'Alfama & Tejo Tours, Lda.', hold_minutes: 20, cors_origins: null }],
}))

const ChangeTarget = Type.Object({
  type: Type.Union([Type.Literal('instance'), Type.Literal('policy'), Type.Literal('tour'), Type.Literal('promo_code')]),
  id: Type.String({ description: 'The instance ref, policy id, tour id or promo code' }),
})

export const CatalogChange = named('CatalogChange', Type.Object({
  action: Type.String({ description: 'As in the audit log without its catalog. prefix: settings.updated, policy.published, tour.created, tour.updated, tour.archived, tour.unarchived, tour.deleted, promo_code.created, promo_code.updated, promo_code.deleted' }),
  target: ChangeTarget,
  fields: Type.Array(Type.String(), { description: 'The fields it changes (the audit entry holds them before and after)' }),
  unit_changes: Type.Optional(Type.Array(Type.String(), {
    description: 'Of a tour.updated whose units changed, each unit added, removed or changed by id ("child added", "adult: price", '
      + '"order: adult, child"); a tour that gains or loses all its units counts the implicit "person" (docs/units.md)' })),
}))

export const OrphanedDeparture = named('OrphanedDeparture', Type.Object({
  tour_id: Type.String(),
  start: Instant,
  seats_taken: Type.Integer({ minimum: 0 }),
}, { description: 'A departure the edit took off the schedule that holds live bookings: it is kept (orphaned) and its bookings stand' }))

export const KeptCapacity = named('KeptCapacity', Type.Object({
  tour_id: Type.String(),
  start: Instant,
  capacity: Type.Integer({ minimum: 0, description: 'The capacity it keeps' }),
  seats_taken: Type.Integer({ minimum: 0 }),
  reason: Type.Union([Type.Literal('set_by_operator'), Type.Literal('seats_taken_above_new_capacity')]),
}, { description: "A future departure that keeps its own capacity instead of the tour's new one" }))

/** What every catalog edit answers, besides the part it edited. */
const summaryFields = {
  dry_run: Type.Boolean({ description: 'true: nothing was changed; the answer says what the edit would do' }),
  catalog_version: Type.Integer({ minimum: 0, description: "The instance's catalog version after the edit; unchanged when nothing changed or on a dry run" }),
  changes: Type.Array(CatalogChange, { description: 'One entry per setting group, policy, tour and promo code changed; empty when the edit changes nothing' }),
  orphaned_departures: Type.Array(OrphanedDeparture),
  capacity_kept: Type.Array(KeptCapacity),
}

const editAnswer = <K extends string, S extends TSchema>(name: string, part: K, schema: S) =>
  named(name, Type.Object({ ...summaryFields, [part]: schema } as typeof summaryFields & { [P in K]: S }))

export const CatalogEditAnswer = editAnswer('CatalogEditAnswer', 'catalog', CatalogInstance)
export const TourEditAnswer = editAnswer('TourEditAnswer', 'tour', OperatorTour)
export const PromoCodeEditAnswer = editAnswer('PromoCodeEditAnswer', 'promo_code', OperatorPromoCode)
export const PolicyEditAnswer = editAnswer('PolicyEditAnswer', 'policy', CatalogPolicy)
export const SettingsEditAnswer = editAnswer('SettingsEditAnswer', 'settings', Settings)

export type OperatorTour = Static<typeof OperatorTour>
export type OperatorPromoCode = Static<typeof OperatorPromoCode>
export type Settings = Static<typeof Settings>
export type SettingsPatch = Static<typeof SettingsPatch>
export type TourPatch = Static<typeof TourPatch>
export type PromoCodePatch = Static<typeof PromoCodePatch>
