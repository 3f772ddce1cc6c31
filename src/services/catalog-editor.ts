import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import { Temporal } from 'temporal-polyfill'
import { diffCatalog, samePolicyTerms, type CatalogChange } from '../domain/catalog-diff.ts'
import { catalogIssues } from '../domain/catalog-rules.ts'
import { formatStoredInZone, fromStoredInstant, toStoredInstant } from '../domain/instant-format.ts'
import { jsonEqual } from '../domain/json-equal.ts'
import { findDeparture } from '../domain/schedule.ts'
import { ApiError, type FieldError } from '../errors/api-error.ts'
import { CatalogInstance, type CatalogTour } from '../schemas/catalog.ts'
import type { Actor } from '../store/audit.ts'
import type { Store } from '../store/store.ts'
import { statement, type Plan, type RecordAnswer } from '../store/write-plan.ts'

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)
const validateInstance = ajv.compile(CatalogInstance)

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
  /** Write an audit entry per change (default true); seeding an empty database from the file is the start, not a change. */
  audit?: boolean
  /** Part of the edit's transaction, given its result: an idempotent request's answer commits with the change. */
  record?: RecordAnswer<CatalogEditResult>
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
  changes: Array<{ action: string, target: CatalogChange['target'], fields: string[] }>
  orphaned_departures: OrphanedDeparture[]
  capacity_kept: KeptCapacity[]
  catalog: CatalogInstance
}

/** One instance's catalog as it stands, and a function that gives it as it should be. */
export type CatalogEdit = (current: CatalogInstance | null) => CatalogInstance

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('').replace(/^\./, '')
  const extra = (error.params as { additionalProperty?: string, missingProperty?: string })
  const leaf = extra.additionalProperty ?? extra.missingProperty
  return leaf === undefined ? path || '(body)' : path ? `${path}.${leaf}` : leaf
}

function schemaErrors(instance: unknown): FieldError[] {
  if (validateInstance(instance)) return []
  return validateInstance.errors!.map((error) => ({
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
 * empty database): one plan reads the instance with its row locked, applies the edit, checks
 * the result as the catalog file is checked, keeps what the rules of OPERATOR.md keep
 * (tours with bookings are archived, a policy edit is a new version, time zone and currency
 * stay once there are bookings), writes the difference, adjusts the departures the tour
 * defaults govern, audits each change and raises the instance's catalog version, which is
 * what makes every node reload it.
 */
export function catalogEditor(store: Store) {
  const { catalog } = store

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
    const { rows } = yield* statement<{ start_at: string, capacity: number, seats_taken: number, capacity_source: string }>(
      `select start_at, capacity, seats_taken, capacity_source from departures
       where instance_id = ? and tour_id = ? and start_at >= ? and capacity <> ? and (capacity_source <> 'tour' or seats_taken > ?)
       order by start_at`,
      [ref, tour.id, now, tour.capacity, tour.capacity])
    if (write) {
      yield* statement(
        `update departures set capacity = ?, version = version + 1
         where instance_id = ? and tour_id = ? and start_at >= ? and capacity_source = 'tour' and seats_taken <= ? and capacity <> ?`,
        [tour.capacity, ref, tour.id, now, tour.capacity, tour.capacity])
    }
    return rows.map((row) => ({
      tour_id: tour.id,
      start: formatStoredInZone(row.start_at, timeZone),
      capacity: Number(row.capacity),
      seats_taken: Number(row.seats_taken),
      reason: row.capacity_source === 'tour' ? 'seats_taken_above_new_capacity' : 'set_by_operator',
    }))
  }

  function* orphansOf(ref: string, tour: CatalogTour, timeZone: string, now: string): Plan<OrphanedDeparture[]> {
    const { rows } = yield* statement<{ start_at: string, seats_taken: number }>(
      `select start_at, seats_taken from departures
       where instance_id = ? and tour_id = ? and start_at >= ? and seats_taken > 0 and extra = 0 and cancelled = 0 order by start_at`,
      [ref, tour.id, now])
    return rows
      .filter((row) => !findDeparture(tour, timeZone, fromStoredInstant(row.start_at)))
      .map((row) => ({ tour_id: tour.id, start: formatStoredInZone(row.start_at, timeZone), seats_taken: Number(row.seats_taken) }))
  }

  function* editPlan(ref: string, edit: CatalogEdit, options: CatalogEditOptions, attempt = 0): Plan<CatalogEditResult> {
    const now = toStoredInstant(options.now)
    const version = yield* catalog.lockInstance(ref)
    if (version === null && !options.mayCreate) throw new ApiError('not_found', 'No such instance')
    const before = version === null ? null : yield* catalog.read(ref)
    const after = structuredClone(edit(before ? structuredClone(before) : null))
    const invalid = schemaErrors(after)
    if (invalid.length > 0) throw new ApiError('validation_failed', 'The catalog does not match its schema', { errors: relativeTo(invalid, after, options.fieldsRelativeTo) })
    if (after.ref !== ref) throw new ApiError('catalog_invalid', 'An instance keeps its ref', { errors: [{ field: 'ref', message: `must stay "${ref}"` }] })
    // Not archived is said by leaving the flag out, as the tables store it: `false` is no change.
    for (const tour of after.tours) if (tour.archived === false) delete tour.archived
    if (before) yield* keepToursWithBookings(ref, before, after)
    const issues: FieldError[] = catalogIssues(after)
    if (yield* catalog.prefixTaken(after.prefix, ref)) issues.push({ field: 'prefix', message: `"${after.prefix}" is another instance's prefix` })
    if (issues.length > 0) throw new ApiError('catalog_invalid', 'The catalog breaks a catalog rule', { errors: relativeTo(issues, after, options.fieldsRelativeTo) })
    if (before && (before.timezone !== after.timezone || before.currency !== after.currency) && (yield* catalog.hasBookings(ref, null))) {
      const field = before.timezone !== after.timezone ? 'timezone' : 'currency'
      throw new ApiError('catalog_frozen', 'Time zone and currency cannot change once the instance has bookings', {
        errors: [{ field, message: `stays "${before[field]}": the instance has bookings` }],
      })
    }
    yield* versionPolicy(ref, before, after)
    const changes = diffCatalog(before, after)
    const write = !options.dryRun && changes.length > 0
    const orphaned: OrphanedDeparture[] = []
    const kept: KeptCapacity[] = []
    for (const change of changes) {
      if (change.target.type !== 'tour' || change.action !== 'tour.updated' || !change.after) continue
      const tour = after.tours.find((t) => t.id === change.target.id)!
      if ('capacity' in change.after) kept.push(...yield* followCapacity(ref, tour, after.timezone, now, write))
      if ('schedule' in change.after || 'blackouts' in change.after) orphaned.push(...yield* orphansOf(ref, tour, after.timezone, now))
    }
    let newVersion = version ?? 0
    if (write) {
      if (version === null && !(yield* catalog.createInstance(after, now))) {
        // Another node created it a moment ago (seeding at the same time): decide again on what it wrote.
        if (attempt > 0) throw new Error(`catalog instance ${ref} could not be created`)
        return yield* editPlan(ref, edit, options, attempt + 1)
      }
      yield* writeChanges(ref, after, changes, now)
      newVersion += 1
      yield* catalog.writeInstance(after, newVersion, now)
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
      changes: changes.map((c) => ({ action: c.action, target: c.target, fields: Object.keys(c.after ?? c.before ?? {}) })),
      orphaned_departures: orphaned,
      capacity_kept: kept,
      catalog: after,
    }
    if (options.record) yield* options.record(result)
    return result
  }

  function* writeChanges(ref: string, after: CatalogInstance, changes: CatalogChange[], now: string): Plan<void> {
    const tourPosition = new Map(after.tours.map((tour, position) => [tour.id, position]))
    const promoPosition = new Map(after.promo_codes.map((promo, position) => [promo.code, position]))
    for (const { action, target } of changes) {
      if (target.type === 'policy') yield* catalog.addPolicyVersion(ref, after.cancellation_policy, now)
      else if (action === 'tour.deleted') yield* catalog.deleteTour(ref, target.id)
      else if (target.type === 'tour') yield* catalog.putTour(ref, after.tours[tourPosition.get(target.id)!], tourPosition.get(target.id)!)
      else if (action === 'promo_code.deleted') yield* catalog.deletePromoCode(ref, target.id)
      else if (target.type === 'promo_code') yield* catalog.putPromoCode(ref, after.promo_codes[promoPosition.get(target.id)!], promoPosition.get(target.id)!)
    }
  }

  return {
    /** Applies `edit` to the instance `ref` in one transaction (see above); throws ApiError for an edit the rules refuse. */
    apply(ref: string, edit: CatalogEdit, options: CatalogEditOptions): Promise<CatalogEditResult> {
      return store.write(() => editPlan(ref, edit, options))
    },

    /** The instance in the catalog file's format as it stands; null when there is no such instance. */
    read(ref: string): Promise<CatalogInstance | null> {
      return store.read(() => catalog.read(ref))
    },

    /**
     * At start: an empty database takes the file's instances; otherwise the refs of the file's
     * instances the database holds differently (or not at all), which the caller reports.
     */
    async seed(instances: readonly CatalogInstance[], now: Temporal.Instant): Promise<{ seeded: boolean, differing: string[] }> {
      const stored = await store.read(() => catalog.versions())
      if (stored.length === 0) {
        for (const instance of instances) {
          await this.apply(instance.ref, () => instance, { actor: { type: 'system', id: null, name: 'catalog file' }, now, mayCreate: true, audit: false })
        }
        return { seeded: true, differing: [] }
      }
      const differing: string[] = []
      for (const instance of instances) {
        const current = await this.read(instance.ref)
        if (!current || !sameCatalog(current, instance)) differing.push(instance.prefix)
      }
      return { seeded: false, differing }
    },
  }
}

/** Whether two instances say the same, policy versions and absent optional flags aside. */
function sameCatalog(a: CatalogInstance, b: CatalogInstance): boolean {
  const normal = (instance: CatalogInstance) => ({
    ...instance,
    cancellation_policy: { ...instance.cancellation_policy, version: 0 },
    tours: instance.tours.map(({ archived, ...tour }) => (archived ? { ...tour, archived } : tour)),
  })
  return jsonEqual(normal(a), normal(b))
}

export type CatalogEditor = ReturnType<typeof catalogEditor>
