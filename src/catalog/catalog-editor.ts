import type { ErrorObject } from 'ajv'
import { Temporal } from 'temporal-polyfill'
import { changeSummary, diffCatalog, samePolicyTerms, type CatalogChange, type TourPositions } from '../domain/catalog-diff.ts'
import { catalogIssues, type OtherTours } from '../domain/catalog-rules.ts'
import { formatStoredInZone, fromStoredInstant, toStoredInstant } from '../domain/instant-format.ts'
import { jsonEqual } from '../domain/json-equal.ts'
import { findDeparture } from '../domain/schedule.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import { CatalogInstance, type CatalogTour } from '../schemas/catalog.ts'
import type { Actor } from '../store/audit.ts'
import type { CatalogPart, TourSelection } from '../store/catalog.ts'
import type { Store } from '../store/store.ts'
import type { Plan, RecordAnswer } from '../store/write-plan.ts'
import { catalogInstanceValidator, catalogPartValidator } from './catalog-schema.ts'

/** The most tours an instance may have; a part of one carries any number of them up to that (none, for a settings edit). */
const MAX_TOURS = (CatalogInstance.properties.tours as unknown as { maxItems: number }).maxItems

/**
 * What an edit reads, checks and may change: the whole instance (PUT /catalog, imports,
 * seeding), or a part of it: its own fields, policy and promo codes with only the tours
 * named (none for a settings, policy or promo code edit). The rules that span tours are then
 * checked against the others in the database, so a part edit costs the tours it names,
 * whatever the instance's size.
 */
export type CatalogScope = 'whole' | { tours: readonly string[] }

export interface CatalogEditOptions {
  actor: Actor
  now: Temporal.Instant
  /** Answer what the edit would change and change nothing. */
  dryRun?: boolean
  requestId?: string | null
  /**
   * Report fields relative to this part of the instance (`tours[2]`), for routes that edit only
   * that part; or a function that finds the part in the edited instance (where the edit put it).
   */
  fieldsRelativeTo?: string | ((after: CatalogInstance) => string | undefined)
  /** Whether the edit may create the instance (imports and seeding); else an unknown instance is 404. */
  mayCreate?: boolean
  /** The part of the instance the edit is given and may change (default: the whole instance). */
  scope?: CatalogScope
  /** Write an audit entry per change (default true); seeding an empty database from the file is the start, not a change. */
  audit?: boolean
  /** Part of the edit's transaction, given its result: an idempotent request's answer commits with the change. */
  record?: RecordAnswer<CatalogEditResult>
}

/** An instance of the catalog file the database holds otherwise, and when the database's last changed (null: not there). */
export interface DifferingInstance {
  prefix: string
  changedAt: string | null
}

/** A departure that keeps its own capacity when the tour's default changes. */
export interface KeptCapacity {
  tour_id: string
  start: string
  capacity: number
  seats_taken: number
  reason: 'set_by_operator' | 'seats_taken_above_new_capacity'
}

/** A departure with live bookings that a schedule edit took off the schedule: kept for those bookings. */
export interface OrphanedDeparture {
  tour_id: string
  start: string
  seats_taken: number
}

/** What an edit changed (or, on a dry run, would change). */
export interface CatalogEditResult {
  instance: { prefix: string, ref: string }
  dry_run: boolean
  /** The instance's catalog version after the edit (unchanged when nothing changed, or on a dry run). */
  catalog_version: number
  changes: Array<ReturnType<typeof changeSummary>>
  orphaned_departures: OrphanedDeparture[]
  capacity_kept: KeptCapacity[]
  /** The instance as edited; of a part edit, the part (the instance's own fields, policy and promo codes, and the tours of the scope). */
  catalog: CatalogInstance
}

/** One instance's catalog as it stands (the part the edit's scope names), and a function that gives it as it should be. */
export type CatalogEdit = (current: CatalogInstance | null) => CatalogInstance

const selectionOf = (scope: CatalogScope): TourSelection => (scope === 'whole' ? { all: true } : { ids: scope.tours })

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '')
  const extra = (error.params as { additionalProperty?: string, missingProperty?: string })
  const leaf = extra.additionalProperty ?? extra.missingProperty
  return leaf === undefined ? path || '(body)' : path ? `${path}.${leaf}` : leaf
}

function schemaErrors(instance: unknown, whole: boolean): FieldError[] {
  const validate = whole ? catalogInstanceValidator() : catalogPartValidator()
  if (validate(instance)) return []
  return validate.errors!.map((error) => ({
    field: fieldOf(error),
    message: error.keyword === 'additionalProperties' ? 'is not a known field' : error.message ?? 'is invalid',
  }))
}

function relativeTo(errors: FieldError[], after: CatalogInstance, relative: CatalogEditOptions['fieldsRelativeTo']): FieldError[] {
  const part = typeof relative === 'function' ? relative(after) : relative
  if (!part) return errors
  return errors.map((e) => ({ ...e, field: e.field === part ? '(body)' : e.field.startsWith(`${part}.`) ? e.field.slice(part.length + 1) : e.field }))
}

/**
 * Catalog edits, from every door (the operator API, `tourdesk catalog import`, seeding an
 * empty database): one plan locks the instance's row, reads the part of the instance the
 * edit's scope names, applies the edit, checks the result as the catalog file is checked
 * (the rules spanning tours against the tours outside the part), keeps what the rules of docs/operator-api.md ("Catalog, settings and policy") keep
 * (tours with bookings are archived, a policy edit is a new version, time zone and currency
 * stay once there are bookings), writes the difference (the rows it changed, each tour
 * marked with the new version), adjusts the departures the tour defaults govern, audits
 * each change and raises the instance's catalog version, which is what makes every node
 * reload what changed.
 */
export function catalogEditor(store: Store) {
  const { catalog, departures } = store

  function* keepToursWithBookings(ref: string, before: CatalogInstance, after: CatalogInstance): Plan<void> {
    const kept = new Set(after.tours.map((tour) => tour.id))
    for (const tour of before.tours) {
      if (!kept.has(tour.id) && (yield* catalog.hasBookings(ref, tour.id))) after.tours.push({ ...tour, archived: true })
    }
  }

  function* versionPolicy(ref: string, before: CatalogInstance | null, after: CatalogInstance): Plan<void> {
    if (before && samePolicyTerms(before.cancellation_policy, after.cancellation_policy)) {
      after.cancellation_policy = before.cancellation_policy
      return
    }
    const latest = yield* catalog.latestPolicyVersion(ref, after.cancellation_policy.id)
    if (after.cancellation_policy.version <= latest) after.cancellation_policy = { ...after.cancellation_policy, version: latest + 1 }
  }

  /** Future departures whose capacity follows the tour take the new one if their seats fit; the others are listed. */
  function* followCapacity(ref: string, tour: CatalogTour, timeZone: string, now: string, write: boolean): Plan<KeptCapacity[]> {
    const rows = yield* departures.capacityKeptFrom(ref, tour.id, now, tour.capacity)
    if (write) yield* departures.followTourCapacity(ref, tour.id, now, tour.capacity)
    return rows.map((row) => ({
      tour_id: tour.id,
      start: formatStoredInZone(row.start_at, timeZone),
      capacity: Number(row.capacity),
      seats_taken: Number(row.seats_taken),
      reason: row.capacity_source === 'tour' ? 'seats_taken_above_new_capacity' : 'set_by_operator',
    }))
  }

  function* orphansOf(ref: string, tour: CatalogTour, timeZone: string, now: string): Plan<OrphanedDeparture[]> {
    return (yield* departures.bookedFrom(ref, tour.id, now))
      .filter((row) => !findDeparture(tour, timeZone, fromStoredInstant(row.start_at)))
      .map((row) => ({ tour_id: tour.id, start: formatStoredInZone(row.start_at, timeZone), seats_taken: Number(row.seats_taken) }))
  }

  function* editPlan(ref: string, edit: CatalogEdit, options: CatalogEditOptions, attempt = 0): Plan<CatalogEditResult> {
    const now = toStoredInstant(options.now)
    const version = yield* catalog.lockInstance(ref)
    if (version === null && !options.mayCreate) throw new ApiError('not_found', 'No such instance')
    const scope = options.scope ?? 'whole'
    const part = version === null ? null : yield* catalog.readPart(ref, selectionOf(scope))
    const before = part?.instance ?? null
    const after = structuredClone(edit(before ? structuredClone(before) : null))
    const invalid = schemaErrors(after, scope === 'whole')
    if (invalid.length > 0) throw new ApiError('validation_failed', 'The catalog does not match its schema', { errors: relativeTo(invalid, after, options.fieldsRelativeTo) })
    if (after.ref !== ref) throw new ApiError('catalog_invalid', 'An instance keeps its ref', { errors: [{ field: 'ref', message: `must stay "${ref}"` }] })
    // Not archived is said by leaving the flag out, as the tables store it: `false` is no change.
    for (const tour of after.tours) if (tour.archived === false) delete tour.archived
    if (before) yield* keepToursWithBookings(ref, before, after)
    const positions = yield* tourPositions(ref, scope, part, after)
    const issues: FieldError[] = catalogIssues(after, scope === 'whole' ? undefined : yield* otherTours(ref, scope, before, after))
    if (after.prefix !== before?.prefix && (yield* catalog.prefixTaken(after.prefix, ref))) issues.push({ field: 'prefix', message: `"${after.prefix}" is another instance's prefix` })
    if (issues.length > 0) throw new ApiError('catalog_invalid', 'The catalog breaks a catalog rule', { errors: relativeTo(issues, after, options.fieldsRelativeTo) })
    if (before && (before.timezone !== after.timezone || before.currency !== after.currency) && (yield* catalog.hasBookings(ref, null))) {
      const field = before.timezone !== after.timezone ? 'timezone' : 'currency'
      throw new ApiError('catalog_frozen', 'Time zone and currency cannot change once the instance has bookings', {
        errors: [{ field, message: `stays "${before[field]}": the instance has bookings` }],
      })
    }
    yield* versionPolicy(ref, before, after)
    const changes = diffCatalog(before, after, positions)
    const write = !options.dryRun && changes.length > 0
    const orphaned: OrphanedDeparture[] = []
    const kept: KeptCapacity[] = []
    for (const change of changes) {
      if (change.target.type !== 'tour' || change.action !== 'tour.updated' || !change.after) continue
      const tour = after.tours.find((t) => t.id === change.target.id)!
      if ('capacity' in change.after) kept.push(...yield* followCapacity(ref, tour, after.timezone, now, write))
      if ('schedule' in change.after || 'blackouts' in change.after) orphaned.push(...yield* orphansOf(ref, tour, after.timezone, now))
    }
    const newVersion = (version ?? 0) + (write ? 1 : 0)
    if (write) {
      if (version === null && !(yield* catalog.createInstance(after, now))) {
        // Another node created it a moment ago (seeding at the same time): decide again on what it wrote.
        if (attempt > 0) throw new Error(`catalog instance ${ref} could not be created`)
        return yield* editPlan(ref, edit, options, attempt + 1)
      }
      yield* writeChanges(ref, after, changes, positions.after, newVersion, now)
      yield* catalog.writeInstance(after, newVersion, now, changes.some((change) => change.action === 'tour.deleted'))
      for (const change of options.audit === false ? [] : changes) {
        yield* store.audit.record({
          instanceId: ref, at: now, actor: options.actor, action: `catalog.${change.action}`, target: change.target,
          before: change.before, after: change.after, requestId: options.requestId ?? null,
        })
      }
    }
    const result: CatalogEditResult = {
      instance: { prefix: after.prefix, ref },
      dry_run: options.dryRun ?? false,
      catalog_version: newVersion,
      changes: changes.map(changeSummary),
      orphaned_departures: orphaned,
      capacity_kept: kept,
      catalog: after,
    }
    if (options.record) yield* options.record(result)
    return result
  }

  /**
   * Where the tours of `before` and `after` stand in the whole list: their indices in a whole
   * edit; in a part edit, where they stood, and after the instance's last tour for a new one.
   */
  function* tourPositions(ref: string, scope: CatalogScope, part: CatalogPart | null, after: CatalogInstance): Plan<TourPositions> {
    if (scope === 'whole') {
      const index = (instance: CatalogInstance) => new Map(instance.tours.map((tour, position) => [tour.id, position]))
      return { before: part ? index(part.instance) : new Map(), after: index(after) }
    }
    const before = part!.positions
    const added = after.tours.filter((tour) => !before.has(tour.id))
    if (added.length === 0) return { before, after: before }
    const next = yield* catalog.nextTourPosition(ref)
    if (next + added.length > MAX_TOURS) {
      throw new ApiError('validation_failed', 'The catalog does not match its schema', { errors: [{ field: 'tours', message: `must NOT have more than ${MAX_TOURS} items` }] })
    }
    return { before, after: new Map([...before, ...added.map((tour, i): [string, number] => [tour.id, next + i])]) }
  }

  /** What the rules spanning tours need of the tours outside a part edit: those its promo codes name, whether one is offered, their translations' languages. */
  function* otherTours(ref: string, scope: Exclude<CatalogScope, 'whole'>, before: CatalogInstance | null, after: CatalogInstance): Plan<OtherTours> {
    const inPart = new Set([...scope.tours, ...after.tours.map((tour) => tour.id)])
    const named = new Set(after.promo_codes.flatMap((promo) => promo.tour_ids ?? []).filter((id) => !inPart.has(id)))
    return {
      ids: yield* catalog.existingTourIds(ref, [...named]),
      anyOffered: after.tours.some((tour) => !tour.archived) || (yield* catalog.offersTourBesides(ref, [...inPart])),
      ...(jsonEqual(before?.languages ?? null, after.languages ?? null) ? {} : { translatedLanguages: yield* catalog.translationLanguages(ref, [...inPart]) }),
    }
  }

  function* writeChanges(ref: string, after: CatalogInstance, changes: CatalogChange[], tourPosition: ReadonlyMap<string, number>, version: number, now: string): Plan<void> {
    const tourIndex = new Map(after.tours.map((tour, index) => [tour.id, index]))
    const promoPosition = new Map(after.promo_codes.map((promo, position) => [promo.code, position]))
    for (const { action, target, before } of changes) {
      if (target.type === 'policy') yield* catalog.addPolicyVersion(ref, after.cancellation_policy, now)
      else if (action === 'tour.deleted') yield* catalog.deleteTour(ref, target.id)
      else if (target.type === 'tour') {
        // A new tour's rules and add-ons are written; an edited one's only when the edit changed them.
        const rewrite = before === null ? undefined : { schedule: 'schedule' in before, addons: 'addons' in before }
        yield* catalog.putTour(ref, after.tours[tourIndex.get(target.id)!], tourPosition.get(target.id)!, version, rewrite)
      }
      else if (action === 'promo_code.deleted') yield* catalog.deletePromoCode(ref, target.id)
      else if (target.type === 'promo_code') yield* catalog.putPromoCode(ref, after.promo_codes[promoPosition.get(target.id)!], promoPosition.get(target.id)!)
    }
  }

  return {
    /** Applies `edit` to the instance `ref` in one transaction (see above); throws ApiError for an edit the rules refuse. */
    apply(ref: string, edit: CatalogEdit, options: CatalogEditOptions): Promise<CatalogEditResult> {
      return store.write(() => editPlan(ref, edit, options))
    },

    /** The instance in the catalog file's format as it stands (the part `scope` names); null when there is no such instance. */
    read(ref: string, scope: CatalogScope = 'whole'): Promise<CatalogInstance | null> {
      return store.read(function* () {
        return (yield* catalog.readPart(ref, selectionOf(scope)))?.instance ?? null
      })
    },

    /**
     * At start: an empty database takes the file's instances; otherwise the refs of the file's
     * instances the database holds differently (or not at all), which the caller reports.
     */
    async seed(instances: readonly CatalogInstance[], now: Temporal.Instant): Promise<{ seeded: boolean, differing: DifferingInstance[] }> {
      const stored = await store.read(() => catalog.versions())
      if (stored.length === 0) {
        for (const instance of instances) {
          await this.apply(instance.ref, () => instance, { actor: { type: 'system', id: null, name: 'catalog file' }, now, mayCreate: true, audit: false })
        }
        return { seeded: true, differing: [] }
      }
      const changedAt = new Map(stored.map((row) => [row.instance_id, row.updated_at]))
      const differing: DifferingInstance[] = []
      for (const instance of instances) {
        if (!await storedAs(instance)) differing.push({ prefix: instance.prefix, changedAt: changedAt.get(instance.ref) ?? null })
      }
      return { seeded: false, differing }
    },
  }

  /**
   * Whether the database holds `instance` as the file says it, policy versions and absent
   * optional flags aside. The tours are read a page at a time, in the file's order: a node
   * starting on a large catalog never holds it twice.
   */
  async function storedAs(instance: CatalogInstance): Promise<boolean> {
    const { ref } = instance
    const stored = await store.read(() => catalog.readPart(ref, { ids: [] }))
    if (!stored || !sameInstanceFields(stored.instance, instance)) return false
    if (await store.read(() => catalog.tourCount(ref)) !== instance.tours.length) return false
    let lastPosition = -1
    for (let start = 0; start < instance.tours.length; start += TOURS_COMPARED_AT_ONCE) {
      const tours = instance.tours.slice(start, start + TOURS_COMPARED_AT_ONCE)
      const part = await store.read(() => catalog.readPart(ref, { ids: tours.map((tour) => tour.id) }))
      const storedTours = new Map(part?.instance.tours.map((tour) => [tour.id, tour]))
      for (const tour of tours) {
        const position = part?.positions.get(tour.id) ?? -1
        // Each tour after the one before it in the database's list too: the same order.
        if (position <= lastPosition || !sameTour(storedTours.get(tour.id)!, tour)) return false
        lastPosition = position
      }
    }
    return true
  }
}

/** Tours of a file read from the database at once, to compare them with the file's. */
const TOURS_COMPARED_AT_ONCE = 500

/** Whether two instances say the same besides their tours, policy versions and absent optional flags aside. */
function sameInstanceFields(a: CatalogInstance, b: CatalogInstance): boolean {
  const normal = ({ tours: _tours, ...instance }: CatalogInstance) => ({ ...instance, cancellation_policy: { ...instance.cancellation_policy, version: 0 } })
  return jsonEqual(normal(a), normal(b))
}

/** Whether two tours say the same, an absent archived flag being false. */
function sameTour(a: CatalogTour, b: CatalogTour): boolean {
  const normal = ({ archived, ...tour }: CatalogTour) => (archived ? { ...tour, archived } : tour)
  return jsonEqual(normal(a), normal(b))
}

export type CatalogEditor = ReturnType<typeof catalogEditor>
