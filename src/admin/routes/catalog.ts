import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../../errors/api-error.ts'
import { runIdempotent } from '../../http/idempotency.ts'
import {
  CatalogEditAnswer, DryRunQuery, NewPromoCode, NewTour, OperatorPromoCodeList, OperatorTour, OperatorTourList, PolicyEditAnswer, PolicyTerms,
  PromoCodeEditAnswer, PromoCodeListQuery, PromoCodeParams, PromoCodePatch, Settings, SettingsEditAnswer, SettingsPatch, TourEditAnswer,
  TourListQuery, TourParams, TourPatch, TourReplacement,
} from '../../schemas/admin/catalog.ts'
import { CatalogInstance, CatalogPolicy } from '../../schemas/catalog.ts'
import { NoBody } from '../../schemas/common.ts'
import type { CatalogEdit, CatalogEditOptions, CatalogEditResult, CatalogScope } from '../../catalog/catalog-editor.ts'
import { actorOf } from '../../services/staff-auth.ts'
import type { RecordAnswer } from '../../store/write-plan.ts'
import {
  addPromoCode, addTour, patchPromoCode, patchSettings, patchTour, relativeToPromoCode, relativeToTour, replaceCatalog, replacePolicyTerms, replaceTour,
  setArchived,
} from '../catalog-edits.ts'
import { editSummary, promoCodeView, settingsView, tourView } from '../catalog-view.ts'
import { pageOf } from '../list-cursor.ts'

/** PUT /catalog takes a whole instance: larger than any other body, still bounded (bigger catalogs go through `tourdesk catalog import`). */
const CATALOG_BODY_LIMIT_BYTES = 4 * 1024 * 1024

const CHECKED = 'Checked as the catalog file is (docs/catalog.md): a body the schema refuses is 400 validation_failed, one that breaks a catalog rule '
  + '(party.min above party.max, party.max above capacity, a promo code naming an unknown tour, no tour left unarchived) 422 catalog_invalid; '
  + 'each error names its field in errors[].'
const LIVE = 'A change reaches guests on this node before the answer is sent, and on every other node within 2 seconds; a request already '
  + 'running keeps the catalog it started with (a hold takes the old price or the new one, never a mix). Every change is written to the audit log '
  + 'with the fields before and after (catalog.tour.updated, catalog.policy.published, …). The answer says what changed (changes, empty when '
  + 'nothing did), the catalog_version after it, departures kept off the schedule for their live bookings (orphaned_departures) and future '
  + "departures that keep their own capacity rather than the tour's new one (capacity_kept: set by an operator, or more seats taken)."
const DRY_RUN = 'With dry_run=true (on every PUT and PATCH of the catalog) the edit is checked and answered as it would be made, and nothing changes.'
const TOUR_RULES = 'Lowering capacity moves the future departures that follow the tour and fit under it; the others are listed in capacity_kept. '
  + 'A schedule or blackouts edit that leaves departures with live bookings off the schedule keeps them (orphaned_departures); their bookings '
  + 'stand. Prices apply to holds made from now on; existing bookings keep theirs.'
const IDEMPOTENT = 'Idempotency-Key makes a retry safe: the first answer, kept with the change, is replayed.'

/** Whether a PUT or PATCH asked for a dry run (the POSTs take no dry_run: their Idempotency-Key answers are kept). */
const dryRun = (request: { query: { dry_run?: 'true' | 'false' } }) => request.query.dry_run === 'true'

/**
 * What a route reads and edits: one tour, or none (promo codes, policy and settings), so that
 * it costs the same in an instance of ten tours or ten thousand; PUT /catalog and GET
 * /catalog and /tours take the whole instance.
 */
const ONE_TOUR = (id: string): CatalogScope => ({ tours: [id] })
const NO_TOURS: CatalogScope = { tours: [] }

/** The tour `id` of an edited instance, as the operator sees it. */
const tourIn = (catalog: CatalogInstance, id: string) => tourView(catalog.tours.find((tour) => tour.id === id)!)

/** The catalog, its tours, promo codes, cancellation policy and settings (docs/operator-api.md, "Catalog, settings and policy"); managers only. */
export const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { catalogEditor, store, clock } = app.tourdesk

  /** The request's instance (the part `scope` names) as the database holds it now (an edit made on any node shows at once). */
  const current = async (request: FastifyRequest, scope: CatalogScope = 'whole') => (await catalogEditor.read(request.catalog.instance.ref, scope))!

  /** The one way the routes change the catalog: the editor, as the caller. */
  function apply(request: FastifyRequest, edit: CatalogEdit, options: Pick<CatalogEditOptions, 'dryRun' | 'fieldsRelativeTo' | 'record' | 'scope'> = {}): Promise<CatalogEditResult> {
    return catalogEditor.apply(request.catalog.instance.ref, edit, { actor: actorOf(request.staff!), now: clock.now(), requestId: request.id, ...options })
  }

  /** An idempotent edit: its answer (`view` of the result) commits with the change and is replayed on a retry. */
  function once<T>(request: FastifyRequest, reply: FastifyReply, edit: CatalogEdit, view: (result: CatalogEditResult) => T,
    options: Pick<CatalogEditOptions, 'fieldsRelativeTo' | 'scope'> = {}, status = 200) {
    return runIdempotent(request, reply, async (record?: RecordAnswer<T>) => view(await apply(request, edit, {
      ...options, record: record && ((result) => record(view(result))),
    })), status)
  }

  app.get('/catalog', {
    schema: { response: { 200: CatalogInstance } },
    config: {
      access: 'catalog.manage',
      summary: 'The whole catalog of this instance, in the catalog file\'s format',
      description: 'What `tourdesk catalog export` writes for this instance: settings, cancellation policy (its current version), promo codes and '
        + 'tours in list order, archived ones included with "archived": true. PUT it back, changed, to edit several parts at once.',
    },
  }, async (request) => current(request))

  app.put('/catalog', {
    bodyLimit: CATALOG_BODY_LIMIT_BYTES,
    schema: { querystring: DryRunQuery, body: CatalogInstance, response: { 200: CatalogEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: 'Replace the whole catalog (as `tourdesk catalog import` does for this instance); ?dry_run=true answers the change summary',
      description: `${CHECKED} ${DRY_RUN} The body is the instance in the catalog file's format (at most 4 MiB; larger catalogs go through `
        + '`tourdesk catalog import`); prefix and ref stay as they are (422 catalog_invalid). A tour left out is deleted if no booking names it, '
        + 'else kept archived. New policy terms publish a new version (the version given is raised past the last one); existing bookings keep '
        + `theirs. timezone and currency cannot change once the instance has bookings (409 catalog_frozen). ${TOUR_RULES} ${LIVE}`,
      errors: ['catalog_invalid', 'catalog_frozen'],
    },
  }, async (request) => {
    const result = await apply(request, replaceCatalog(request.body), { dryRun: dryRun(request) })
    return { ...editSummary(result), catalog: result.catalog }
  })

  app.get('/tours', {
    schema: { querystring: TourListQuery, response: { 200: OperatorTourList } },
    config: {
      access: 'catalog.manage',
      summary: 'Every tour in list order, archived ones included',
      description: 'Each tour in the catalog file\'s format with archived (true: guests no longer see it; its bookings and departures stand). '
        + 'In pages of limit (default 50) that follow next_cursor.',
    },
  }, async (request) => {
    const { tours } = await current(request)
    const page = pageOf(tours.map((tour, position) => ({ tour, key: String(position).padStart(6, '0') })), (row) => [row.key, row.tour.id], request.query)
    return { tours: page.items.map((row) => tourView(row.tour)), next_cursor: page.nextCursor }
  })

  app.post('/tours', {
    schema: { body: NewTour, response: { 201: TourEditAnswer } },
    config: {
      access: 'catalog.manage',
      idempotent: true,
      summary: 'Add a tour; guests can book it at once',
      description: `${CHECKED} The tour joins the end of the list. An id already in the catalog, archived or not, is 409 tour_exists. `
        + `Check a tour without adding it with PUT /catalog?dry_run=true. ${IDEMPOTENT} ${LIVE}`,
      errors: ['catalog_invalid', 'tour_exists', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.code(201)
    const { id } = request.body
    return once(request, reply, addTour(request.body), (result) => ({ ...editSummary(result), tour: tourIn(result.catalog, id) }),
      { fieldsRelativeTo: relativeToTour(id), scope: ONE_TOUR(id) }, 201)
  })

  app.get('/tours/:id', {
    schema: { params: TourParams, response: { 200: OperatorTour } },
    config: {
      access: 'catalog.manage',
      summary: 'One tour, archived or not',
      description: 'The tour in the catalog file\'s format, with archived. 404 tour_not_found when the catalog has no such tour.',
      errors: ['tour_not_found'],
    },
  }, async (request) => {
    const tour = (await current(request, ONE_TOUR(request.params.id))).tours.find((t) => t.id === request.params.id)
    if (!tour) throw new ApiError('tour_not_found', `There is no tour "${request.params.id}"`)
    return tourView(tour)
  })

  const tourAnswer = (id: string) => (result: CatalogEditResult) => ({ ...editSummary(result), tour: tourIn(result.catalog, id) })

  app.put('/tours/:id', {
    schema: { params: TourParams, querystring: DryRunQuery, body: TourReplacement, response: { 200: TourEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: 'Replace a tour',
      description: `${CHECKED} Errors name the tour's fields (party.max, schedule[0].from). The body is the whole tour; id may be left out, and a `
        + 'different one is 422 catalog_invalid (a tour keeps its id). archived left out keeps the tour as it is; true or false archives or '
        + `unarchives it, as the actions do. ${DRY_RUN} ${TOUR_RULES} ${LIVE}`,
      errors: ['tour_not_found', 'catalog_invalid'],
    },
  }, async (request) => {
    const { id } = request.params
    return tourAnswer(id)(await apply(request, replaceTour(id, request.body), { dryRun: dryRun(request), fieldsRelativeTo: relativeToTour(id), scope: ONE_TOUR(id) }))
  })

  app.patch('/tours/:id', {
    schema: { params: TourParams, querystring: DryRunQuery, body: TourPatch, response: { 200: TourEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: "Change some of a tour's fields",
      description: `${CHECKED} Errors name the tour's fields. Each top-level field given replaces the tour's (a merge patch one level deep: `
        + 'party, meeting_point, addons and schedule are given whole); the others stay. The merged tour is checked as a whole, so '
        + `{"capacity": 4} under a party.max of 10 is 422 catalog_invalid naming party.max. ${DRY_RUN} ${TOUR_RULES} ${LIVE}`,
      errors: ['tour_not_found', 'catalog_invalid'],
    },
  }, async (request) => {
    const { id } = request.params
    return tourAnswer(id)(await apply(request, patchTour(id, request.body), { dryRun: dryRun(request), fieldsRelativeTo: relativeToTour(id), scope: ONE_TOUR(id) }))
  })

  for (const [action, archived] of [['archive', true], ['unarchive', false]] as const) {
    app.post(`/tours/:id/${action}`, {
      schema: { params: TourParams, body: NoBody, response: { 200: TourEditAnswer } },
      config: {
        access: 'catalog.manage',
        idempotent: true,
        summary: archived ? 'Archive a tour: guests stop seeing it; its bookings stand' : 'Unarchive a tour: guests see it and can book it again',
        description: (archived
          ? 'Guests get 404 for the tour and its availability, it leaves the tour list and search, and no new hold is taken on it; its '
            + 'bookings and departures stand and the operator still sees and manages them. The last tour guests can see cannot be archived '
            + '(422 catalog_invalid on tours). '
          : 'The tour is offered again with its schedule as it stands. ')
          + `Repeating it answers the tour as it is, with no changes. ${IDEMPOTENT} ${LIVE}`,
        errors: ['tour_not_found', 'catalog_invalid', 'idempotency_in_flight', 'idempotency_key_reused'],
      },
    }, async (request, reply) => {
      const { id } = request.params
      return once(request, reply, setArchived(id, archived), tourAnswer(id), { scope: ONE_TOUR(id) })
    })
  }

  app.get('/promo-codes', {
    schema: { querystring: PromoCodeListQuery, response: { 200: OperatorPromoCodeList } },
    config: {
      access: 'catalog.manage',
      summary: 'Every promo code in list order, with its uses',
      description: 'Each code in the catalog file\'s format, with uses, the count max_uses is held against. In pages of limit (default 50) that follow next_cursor.',
    },
  }, async (request) => {
    const { ref } = request.catalog.instance
    const { promo_codes } = await current(request, NO_TOURS)
    const page = pageOf(promo_codes.map((promo, position) => ({ promo, key: String(position).padStart(6, '0') })), (row) => [row.key, row.promo.code], request.query)
    const items = await Promise.all(page.items.map(async ({ promo }) => promoCodeView(promo, await store.promoRedemptions.uses(ref, promo.code))))
    return { promo_codes: items, next_cursor: page.nextCursor }
  })

  const promoAnswer = (code: string, uses: number) => (result: CatalogEditResult) => ({
    ...editSummary(result), promo_code: promoCodeView(result.catalog.promo_codes.find((p) => p.code === code)!, uses),
  })

  app.post('/promo-codes', {
    schema: { body: NewPromoCode, response: { 201: PromoCodeEditAnswer } },
    config: {
      access: 'catalog.manage',
      idempotent: true,
      summary: 'Add a promo code; guests can use it at once',
      description: `${CHECKED} A code already in the catalog is 409 promo_code_exists (codes are upper case; guests may type them in any case). `
        + `tour_ids left out: every tour. ${IDEMPOTENT} ${LIVE}`,
      errors: ['catalog_invalid', 'promo_code_exists', 'idempotency_in_flight', 'idempotency_key_reused'],
    },
  }, async (request, reply) => {
    reply.code(201)
    const { code } = request.body
    const uses = await store.promoRedemptions.uses(request.catalog.instance.ref, code)
    return once(request, reply, addPromoCode(request.body), promoAnswer(code, uses), { fieldsRelativeTo: relativeToPromoCode(code), scope: NO_TOURS }, 201)
  })

  app.patch('/promo-codes/:code', {
    schema: { params: PromoCodeParams, querystring: DryRunQuery, body: PromoCodePatch, response: { 200: PromoCodeEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: "Change a promo code's terms or validity",
      description: `${CHECKED} Errors name the code's fields. A JSON merge patch: the fields given replace the code's, null removes tour_ids `
        + '(every tour) or max_uses (no limit); the code itself stays. End a code early by moving valid_until. Bookings already made keep their '
        + `discount. The code in the path is read in any case; 404 not_found when there is no such code. ${DRY_RUN} ${LIVE}`,
      errors: ['not_found', 'catalog_invalid'],
    },
  }, async (request) => {
    const code = request.params.code.toUpperCase()
    const uses = await store.promoRedemptions.uses(request.catalog.instance.ref, code)
    return promoAnswer(code, uses)(await apply(request, patchPromoCode(code, request.body), {
      dryRun: dryRun(request), fieldsRelativeTo: relativeToPromoCode(code), scope: NO_TOURS,
    }))
  })

  app.get('/policy', {
    schema: { response: { 200: CatalogPolicy } },
    config: {
      access: 'catalog.manage',
      summary: 'The cancellation policy in force: its id, current version and terms',
      description: 'New bookings take this version; each booking keeps the version it was made under (its policy field).',
    },
  }, async (request) => (await current(request, NO_TOURS)).cancellation_policy)

  app.put('/policy', {
    schema: { querystring: DryRunQuery, body: PolicyTerms, response: { 200: PolicyEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: 'Publish new cancellation terms: a new version of the policy',
      description: `${CHECKED} Errors name the policy's fields (tiers[1].fee_percent). The body is the terms; the answer shows the policy with its `
        + 'new version (the last one + 1). Bookings made from now on take it; existing bookings keep the terms they were made under, so their '
        + `cancellation fees do not change. The same terms again change nothing. ${DRY_RUN} ${LIVE}`,
      errors: ['catalog_invalid'],
    },
  }, async (request) => {
    const result = await apply(request, replacePolicyTerms(request.body), { dryRun: dryRun(request), fieldsRelativeTo: 'cancellation_policy', scope: NO_TOURS })
    return { ...editSummary(result), policy: result.catalog.cancellation_policy }
  })

  app.get('/settings', {
    schema: { response: { 200: Settings } },
    config: {
      access: 'catalog.manage',
      summary: "The instance's own settings",
      description: 'Name, time zone, currency, booking horizon, hold time, decoy fields, allowed and CORS origins, rate limits, phone region, '
        + 'payment methods and the hours operators have to decide a request, as in the catalog file; an optional one left unset is null and '
        + 'its default applies. prefix and ref, the instance\'s addresses, are not settings.',
    },
  }, async (request) => settingsView(await current(request, NO_TOURS)))

  app.patch('/settings', {
    schema: { querystring: DryRunQuery, body: SettingsPatch, response: { 200: SettingsEditAnswer } },
    config: {
      access: 'catalog.manage',
      summary: 'Change some settings',
      description: `${CHECKED} A JSON merge patch: the fields given replace the current ones, null unsets an optional one (its default applies). `
        + `timezone and currency cannot change once the instance has bookings (409 catalog_frozen). ${DRY_RUN} ${LIVE}`,
      errors: ['catalog_invalid', 'catalog_frozen'],
    },
  }, async (request) => {
    const result = await apply(request, patchSettings(request.body), { dryRun: dryRun(request), scope: NO_TOURS })
    return { ...editSummary(result), settings: settingsView(result.catalog) }
  })
}
