import type { CatalogInstance, CatalogPolicy, CatalogPromoCode, CatalogTour } from '../schemas/catalog.ts'
import { groupByTour, insertRows, tourOf } from './catalog-tour-rows.ts'
import type { Database } from './database.ts'
import { statement, type Plan } from './write-plan.ts'

/** Where each instance's catalog stands: a node reloads an instance whose version moved. */
export interface CatalogVersion {
  instance_id: string
  prefix: string
  catalog_version: number
  /** When the catalog last changed (seeded, imported or edited), as stored. */
  updated_at: string
}

/**
 * Which of an instance's tours a read takes: every one, those named, or those that changed
 * after a catalog version: the tours edits wrote since, or every tour when an edit deleted
 * one since (a deleted tour leaves no row to read).
 */
export type TourSelection = { all: true } | { ids: readonly string[] } | { changedAfter: number }

/**
 * An instance as a read found it: its own fields, policy and promo codes (always whole) with
 * the tours selected, in list order, and where each of those stands in the whole list.
 */
export interface CatalogPart {
  version: number
  instance: CatalogInstance
  positions: Map<string, number>
  /** Whether every tour was read (asked for, or a tour was deleted after the version asked for). */
  whole: boolean
}

/** The PostgreSQL channel a committed catalog change is announced on (the payload is the instance id). */
export const CATALOG_CHANNEL = 'tourdesk_catalog'

/** The instance fields kept in `catalog_instances.settings`: all but the ones with columns or tables of their own. */
type Settings = Omit<CatalogInstance, 'prefix' | 'ref' | 'name' | 'timezone' | 'currency' | 'cancellation_policy' | 'promo_codes' | 'tours'>

const parse = <T>(text: string): T => JSON.parse(text) as T

/** Tours read by one statement (readTours). */
const TOURS_PER_READ = 500

function settingsOf(instance: CatalogInstance): Settings {
  const { prefix: _p, ref: _r, name: _n, timezone: _t, currency: _c, cancellation_policy: _cp, promo_codes: _pc, tours: _tours, ...settings } = instance
  return settings
}

/**
 * The catalog tables (migrations 013 and 020): one instance's catalog, or a part of it, read
 * back in the catalog file's format, and the statements that change it. Writes take the
 * instance's row lock first (`lockInstance`), so catalog changes to one instance queue behind
 * each other on PostgreSQL; each tour row carries the catalog version that last wrote it.
 */
export function catalogRepository({ dialect }: Database) {
  /** `column` is one of a list given as one parameter (`listParam`), so the statement's text is the same for any length. */
  const inList = (column: string) => (dialect === 'postgres' ? `${column} = any(?)` : `${column} in (select value from json_each(?))`)
  const listParam = (values: readonly string[]) => (dialect === 'postgres' ? values : JSON.stringify(values))

  /**
   * The selected tours in list order and where each stands, with their rules and add-ons, a
   * batch of tours at a time: a whole read of ten thousand tours holds one batch of rows at a
   * time besides the tours made from them. Every tour is read in list order by the order's
   * index; tours changed since a version are found by the index of versions first, then read
   * by their keys, as are tours named (a one-tour edit's reads are three key lookups).
   */
  function* readTours(instanceId: string, selection: TourSelection): Plan<{ tours: CatalogTour[], positions: Map<string, number> }> {
    const tours: CatalogTour[] = []
    const positions = new Map<string, number>()
    function* take(rows: any[]): Plan<void> {
      const ids = listParam(rows.map((row) => row.id as string))
      const { rows: rules } = yield* statement<any>(
        `select * from catalog_schedule_rules where instance_id = ? and ${inList('tour_id')} order by tour_id, position`, [instanceId, ids])
      const { rows: addons } = yield* statement<any>(
        `select * from catalog_addons where instance_id = ? and ${inList('tour_id')} order by tour_id, position`, [instanceId, ids])
      const rulesOf = groupByTour(rules)
      const addonsOf = groupByTour(addons)
      for (const row of rows) {
        tours.push(tourOf(row, rulesOf.get(row.id) ?? [], addonsOf.get(row.id) ?? []))
        positions.set(row.id, Number(row.position))
      }
    }
    if ('all' in selection) {
      for (let after: unknown[] = [-1, '']; ;) {
        const { rows } = yield* statement<any>(
          `select * from catalog_tours where instance_id = ? and (position, id) > (?, ?) order by position, id limit ${TOURS_PER_READ}`, [instanceId, ...after])
        if (rows.length > 0) yield* take(rows)
        if (rows.length < TOURS_PER_READ) break
        after = [rows[rows.length - 1].position, rows[rows.length - 1].id]
      }
      return { tours, positions }
    }
    let ids = 'ids' in selection ? selection.ids : null
    if (ids === null) {
      const { rows } = yield* statement<{ id: string }>(
        'select id from catalog_tours where instance_id = ? and updated_version > ?', [instanceId, (selection as { changedAfter: number }).changedAfter])
      ids = rows.map((row) => row.id)
    }
    for (let start = 0; start < ids.length; start += TOURS_PER_READ) {
      const { rows } = yield* statement<any>(
        `select * from catalog_tours where instance_id = ? and ${inList('id')}`, [instanceId, listParam(ids.slice(start, start + TOURS_PER_READ))])
      if (rows.length > 0) yield* take(rows)
    }
    // Read by their keys (an ORDER BY would have the databases walk the list's index instead).
    tours.sort((a, b) => positions.get(a.id)! - positions.get(b.id)! || (a.id < b.id ? -1 : 1))
    return { tours, positions }
  }

  return {
    *versions(): Plan<CatalogVersion[]> {
      const { rows } = yield* statement<CatalogVersion>('select instance_id, prefix, catalog_version, updated_at from catalog_instances order by instance_id', [])
      return rows.map((r) => ({ ...r, catalog_version: Number(r.catalog_version) }))
    },

    *instanceIdOfPrefix(prefix: string): Plan<string | null> {
      const { rows: [row] } = yield* statement<{ instance_id: string }>('select instance_id from catalog_instances where prefix = ?', [prefix])
      return row?.instance_id ?? null
    },

    /** The instance's catalog version, its row locked (PostgreSQL) until the plan commits; null when there is no such instance. */
    *lockInstance(instanceId: string): Plan<number | null> {
      const { rows: [row] } = yield* statement<{ catalog_version: number }>(
        `select catalog_version from catalog_instances where instance_id = ?${dialect === 'postgres' ? ' for update' : ''}`, [instanceId])
      return row ? Number(row.catalog_version) : null
    },

    /** The instance in the catalog file's format, archived tours included (with `archived: true`). */
    *read(instanceId: string): Plan<CatalogInstance | null> {
      return (yield* this.readPart(instanceId, { all: true }))?.instance ?? null
    },

    /**
     * The instance with the tours `selection` picks (see CatalogPart). Consistent only inside
     * one transaction: an edit's plan, or a snapshot.
     */
    *readPart(instanceId: string, selection: TourSelection): Plan<CatalogPart | null> {
      // The instance's row with its current policy's terms, in one statement (one round trip on PostgreSQL).
      const { rows: [head] } = yield* statement<any>(
        `select i.*, p.summary as policy_summary, p.tiers as policy_tiers, p.no_show_fee_percent as policy_no_show_fee_percent, p.translations as policy_translations
         from catalog_instances i join catalog_policies p on p.instance_id = i.instance_id and p.id = i.policy_id and p.version = i.policy_version
         where i.instance_id = ?`, [instanceId])
      if (!head) return null
      const read = 'changedAfter' in selection && Number(head.tours_removed_version) > selection.changedAfter ? { all: true as const } : selection
      const { tours, positions } = yield* readTours(instanceId, read)
      const { rows: promos } = yield* statement<any>('select * from catalog_promo_codes where instance_id = ? order by position', [instanceId])
      const instance: CatalogInstance = {
        prefix: head.prefix,
        ref: head.instance_id,
        name: head.name,
        timezone: head.timezone,
        currency: head.currency,
        ...parse<Settings>(head.settings),
        cancellation_policy: {
          id: head.policy_id,
          version: Number(head.policy_version),
          summary: head.policy_summary,
          tiers: parse(head.policy_tiers),
          no_show_fee_percent: Number(head.policy_no_show_fee_percent),
          ...(head.policy_translations === null ? {} : { translations: parse(head.policy_translations) }),
        },
        promo_codes: promos.map((p): CatalogPromoCode => ({
          code: p.code,
          kind: p.kind,
          value: Number(p.value),
          valid_from: p.valid_from,
          valid_until: p.valid_until,
          ...(p.tour_ids === null ? {} : { tour_ids: parse<string[]>(p.tour_ids) }),
          ...(p.max_uses === null ? {} : { max_uses: Number(p.max_uses) }),
        })),
        tours,
      }
      return { version: Number(head.catalog_version), instance, positions, whole: 'all' in read }
    },

    *tourCount(instanceId: string): Plan<number> {
      const { rows: [row] } = yield* statement<{ count: number }>('select count(*) as count from catalog_tours where instance_id = ?', [instanceId])
      return Number(row.count)
    },

    /** The position after the instance's last tour, where a new tour goes. */
    *nextTourPosition(instanceId: string): Plan<number> {
      const { rows: [row] } = yield* statement<{ next: number }>(
        'select coalesce(max(position) + 1, 0) as next from catalog_tours where instance_id = ?', [instanceId])
      return Number(row.next)
    },

    /** Whether a tour other than those of `ids` is offered to guests (not archived). */
    *offersTourBesides(instanceId: string, ids: readonly string[]): Plan<boolean> {
      const { rows } = yield* statement(
        `select 1 from catalog_tours where instance_id = ? and archived = 0 and not ${inList('id')} limit 1`, [instanceId, listParam(ids)])
      return rows.length > 0
    },

    /** The languages the translations of the instance's tours besides those of `ids` are in. */
    *translationLanguages(instanceId: string, ids: readonly string[]): Plan<Set<string>> {
      const { rows } = yield* statement<{ translations: string }>(
        `select translations from catalog_tours where instance_id = ? and translations is not null and not ${inList('id')}`, [instanceId, listParam(ids)])
      return new Set(rows.flatMap((row) => Object.keys(parse<object>(row.translations))))
    },

    /** Those of `ids` that name a tour of the instance. */
    *existingTourIds(instanceId: string, ids: readonly string[]): Plan<Set<string>> {
      if (ids.length === 0) return new Set()
      const { rows } = yield* statement<{ id: string }>(`select id from catalog_tours where instance_id = ? and ${inList('id')}`, [instanceId, listParam(ids)])
      return new Set(rows.map((row) => row.id))
    },

    /** A new instance's row (a second node seeding at the same moment finds it there and changes nothing). */
    *createInstance(instance: CatalogInstance, now: string): Plan<boolean> {
      const { changes } = yield* statement(
        `insert into catalog_instances (instance_id, prefix, name, timezone, currency, settings, policy_id, policy_version, catalog_version, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, 0, ?) on conflict do nothing`,
        [instance.ref, instance.prefix, instance.name, instance.timezone, instance.currency, JSON.stringify(settingsOf(instance)),
          instance.cancellation_policy.id, instance.cancellation_policy.version, now])
      return changes === 1
    },

    /**
     * The instance's own fields and current policy, and its catalog version raised: every node
     * reloads it (every tour, when the edit deleted one: `toursRemoved`).
     */
    *writeInstance(instance: CatalogInstance, version: number, now: string, toursRemoved = false): Plan<void> {
      const update = `update catalog_instances set prefix = ?, name = ?, timezone = ?, currency = ?, settings = ?, policy_id = ?, policy_version = ?,
         catalog_version = ?, tours_removed_version = coalesce(?, tours_removed_version), updated_at = ? where instance_id = ?`
      const params = [instance.prefix, instance.name, instance.timezone, instance.currency, JSON.stringify(settingsOf(instance)),
        instance.cancellation_policy.id, instance.cancellation_policy.version, version, toursRemoved ? version : null, now, instance.ref]
      // PostgreSQL announces it in the same statement, delivered at the commit.
      if (dialect === 'postgres') yield* statement(`with changed as (${update} returning instance_id) select pg_notify(?, instance_id) from changed`, [...params, CATALOG_CHANNEL])
      else yield* statement(update, params)
    },

    *prefixTaken(prefix: string, instanceId: string): Plan<boolean> {
      const { rows } = yield* statement('select 1 from catalog_instances where prefix = ? and instance_id <> ?', [prefix, instanceId])
      return rows.length > 0
    },

    /** The highest version the policy `id` has had, 0 for a new one. */
    *latestPolicyVersion(instanceId: string, policyId: string): Plan<number> {
      const { rows: [row] } = yield* statement<{ version: number | null }>(
        'select max(version) as version from catalog_policies where instance_id = ? and id = ?', [instanceId, policyId])
      return Number(row?.version ?? 0)
    },

    *addPolicyVersion(instanceId: string, policy: CatalogPolicy, now: string): Plan<void> {
      yield* statement(
        'insert into catalog_policies (instance_id, id, version, summary, tiers, no_show_fee_percent, translations, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
        [instanceId, policy.id, policy.version, policy.summary, JSON.stringify(policy.tiers), policy.no_show_fee_percent,
          policy.translations === undefined ? null : JSON.stringify(policy.translations), now])
    },

    /**
     * Writes the tour as given, as written by catalog version `version`: its row, and its
     * schedule rules and add-ons unless `rewrite` says they stand as they were (a price edit
     * writes one row).
     */
    *putTour(instanceId: string, tour: CatalogTour, position: number, version: number, rewrite = { schedule: true, addons: true }): Plan<void> {
      const row: Record<string, unknown> = {
        instance_id: instanceId, id: tour.id, position, updated_version: version, title: tour.title, summary: tour.summary, description: tour.description,
        duration_minutes: tour.duration_minutes, meeting_point: JSON.stringify(tour.meeting_point), languages: JSON.stringify(tour.languages),
        tags: JSON.stringify(tour.tags), price: tour.price, party_min: tour.party.min, party_max: tour.party.max, capacity: tour.capacity,
        cutoff_minutes: tour.cutoff_minutes, confirmation: tour.confirmation, blackouts: JSON.stringify(tour.blackouts), archived: tour.archived ? 1 : 0,
        min_participants: tour.min_participants ?? null, min_participants_deadline_hours: tour.min_participants_deadline_hours ?? null,
        units: tour.units === undefined ? null : JSON.stringify(tour.units),
        translations: tour.translations === undefined ? null : JSON.stringify(tour.translations),
      }
      const columns = Object.keys(row)
      yield* statement(
        `insert into catalog_tours (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
         on conflict (instance_id, id) do update set ${columns.slice(2).map((column) => `${column} = excluded.${column}`).join(', ')}`,
        Object.values(row))
      if (rewrite.schedule) {
        yield* statement('delete from catalog_schedule_rules where instance_id = ? and tour_id = ?', [instanceId, tour.id])
        yield* insertRows('catalog_schedule_rules', ['instance_id', 'tour_id', 'position', 'valid_from', 'valid_until', 'weekdays', 'times'],
          tour.schedule.map((rule, i) => [instanceId, tour.id, i, rule.from, rule.until, JSON.stringify(rule.weekdays), JSON.stringify(rule.times)]))
      }
      if (rewrite.addons) {
        yield* statement('delete from catalog_addons where instance_id = ? and tour_id = ?', [instanceId, tour.id])
        yield* insertRows('catalog_addons', ['instance_id', 'tour_id', 'id', 'position', 'name', 'description', 'price', 'per', 'max_quantity'],
          tour.addons.map((addon, i) => [instanceId, tour.id, addon.id, i, addon.name, addon.description, addon.price, addon.per, addon.max_quantity]))
      }
    },

    *deleteTour(instanceId: string, tourId: string): Plan<void> {
      yield* statement('delete from catalog_addons where instance_id = ? and tour_id = ?', [instanceId, tourId])
      yield* statement('delete from catalog_schedule_rules where instance_id = ? and tour_id = ?', [instanceId, tourId])
      yield* statement('delete from catalog_tours where instance_id = ? and id = ?', [instanceId, tourId])
    },

    *putPromoCode(instanceId: string, promo: CatalogPromoCode, position: number): Plan<void> {
      yield* this.deletePromoCode(instanceId, promo.code)
      yield* statement(
        `insert into catalog_promo_codes (instance_id, code, position, kind, value, valid_from, valid_until, tour_ids, max_uses)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [instanceId, promo.code, position, promo.kind, promo.value, promo.valid_from, promo.valid_until,
          promo.tour_ids === undefined ? null : JSON.stringify(promo.tour_ids), promo.max_uses ?? null])
    },

    *deletePromoCode(instanceId: string, code: string): Plan<void> {
      yield* statement('delete from catalog_promo_codes where instance_id = ? and code = ?', [instanceId, code])
    },

    /** Whether any booking (in any status) names the tour, or the instance when `tourId` is null. */
    *hasBookings(instanceId: string, tourId: string | null): Plan<boolean> {
      const { rows } = tourId === null
        ? yield* statement('select 1 from bookings where instance_id = ? limit 1', [instanceId])
        : yield* statement('select 1 from bookings where instance_id = ? and tour_id = ? limit 1', [instanceId, tourId])
      return rows.length > 0
    },
  }
}

export type CatalogRepository = ReturnType<typeof catalogRepository>
