import type { CatalogInstance, CatalogPolicy, CatalogPromoCode, CatalogTour } from '../schemas/catalog.ts'
import type { Database } from './database.ts'
import { statement, type Plan } from './write-plan.ts'

/** Where each instance's catalog stands: a node reloads an instance whose version moved. */
export interface CatalogVersion {
  instance_id: string
  prefix: string
  catalog_version: number
}

/** The PostgreSQL channel a committed catalog change is announced on (the payload is the instance id). */
export const CATALOG_CHANNEL = 'tourdesk_catalog'

/** The instance fields kept in `catalog_instances.settings`: all but the ones with columns or tables of their own. */
type Settings = Omit<CatalogInstance, 'prefix' | 'ref' | 'name' | 'timezone' | 'currency' | 'cancellation_policy' | 'promo_codes' | 'tours'>

const parse = <T>(text: string): T => JSON.parse(text) as T

function settingsOf(instance: CatalogInstance): Settings {
  const { prefix: _p, ref: _r, name: _n, timezone: _t, currency: _c, cancellation_policy: _cp, promo_codes: _pc, tours: _tours, ...settings } = instance
  return settings
}

/**
 * The catalog tables (migration 013): one instance's catalog read back in the catalog file's
 * format, and the statements that change it. Writes take the instance's row lock first
 * (`lockInstance`), so catalog changes to one instance queue behind each other on PostgreSQL.
 */
export function catalogRepository({ dialect }: Database) {
  return {
    *versions(): Plan<CatalogVersion[]> {
      const { rows } = yield* statement<CatalogVersion>('select instance_id, prefix, catalog_version from catalog_instances order by instance_id', [])
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

    /**
     * The instance and its catalog version, read whole: on PostgreSQL its row is share-locked
     * first, so no edit (which takes the row for update) commits between the statements.
     */
    *readLocked(instanceId: string): Plan<{ version: number, instance: CatalogInstance } | null> {
      const { rows: [row] } = yield* statement<{ catalog_version: number }>(
        `select catalog_version from catalog_instances where instance_id = ?${dialect === 'postgres' ? ' for share' : ''}`, [instanceId])
      if (!row) return null
      const instance = yield* this.read(instanceId)
      return instance && { version: Number(row.catalog_version), instance }
    },

    /** The instance in the catalog file's format, archived tours included (with `archived: true`). */
    *read(instanceId: string): Plan<CatalogInstance | null> {
      const { rows: [head] } = yield* statement<any>('select * from catalog_instances where instance_id = ?', [instanceId])
      if (!head) return null
      const { rows: [policy] } = yield* statement<any>('select * from catalog_policies where instance_id = ? and id = ? and version = ?',
        [instanceId, head.policy_id, head.policy_version])
      const { rows: tours } = yield* statement<any>('select * from catalog_tours where instance_id = ? order by position', [instanceId])
      const { rows: rules } = yield* statement<any>('select * from catalog_schedule_rules where instance_id = ? order by tour_id, position', [instanceId])
      const { rows: addons } = yield* statement<any>('select * from catalog_addons where instance_id = ? order by tour_id, position', [instanceId])
      const { rows: promos } = yield* statement<any>('select * from catalog_promo_codes where instance_id = ? order by position', [instanceId])
      const rulesOf = groupByTour(rules)
      const addonsOf = groupByTour(addons)
      return {
        prefix: head.prefix,
        ref: head.instance_id,
        name: head.name,
        timezone: head.timezone,
        currency: head.currency,
        ...parse<Settings>(head.settings),
        cancellation_policy: {
          id: policy.id,
          version: Number(policy.version),
          summary: policy.summary,
          tiers: parse(policy.tiers),
          no_show_fee_percent: Number(policy.no_show_fee_percent),
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
        tours: tours.map((t): CatalogTour => ({
          id: t.id,
          title: t.title,
          summary: t.summary,
          description: t.description,
          duration_minutes: Number(t.duration_minutes),
          meeting_point: parse(t.meeting_point),
          languages: parse(t.languages),
          tags: parse(t.tags),
          price: Number(t.price),
          party: { min: Number(t.party_min), max: Number(t.party_max) },
          capacity: Number(t.capacity),
          cutoff_minutes: Number(t.cutoff_minutes),
          confirmation: t.confirmation,
          addons: (addonsOf.get(t.id) ?? []).map((a) => ({
            id: a.id, name: a.name, description: a.description, price: Number(a.price), per: a.per, max_quantity: Number(a.max_quantity),
          })),
          schedule: (rulesOf.get(t.id) ?? []).map((r) => ({ from: r.valid_from, until: r.valid_until, weekdays: parse(r.weekdays), times: parse(r.times) })),
          blackouts: parse(t.blackouts),
          ...(Number(t.archived) === 1 ? { archived: true } : {}),
        })),
      }
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

    /** The instance's own fields and current policy, and its catalog version raised: every node reloads it. */
    *writeInstance(instance: CatalogInstance, version: number, now: string): Plan<void> {
      yield* statement(
        `update catalog_instances set prefix = ?, name = ?, timezone = ?, currency = ?, settings = ?, policy_id = ?, policy_version = ?,
         catalog_version = ?, updated_at = ? where instance_id = ?`,
        [instance.prefix, instance.name, instance.timezone, instance.currency, JSON.stringify(settingsOf(instance)),
          instance.cancellation_policy.id, instance.cancellation_policy.version, version, now, instance.ref])
      if (dialect === 'postgres') yield* statement('select pg_notify(?, ?)', [CATALOG_CHANNEL, instance.ref])
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
        'insert into catalog_policies (instance_id, id, version, summary, tiers, no_show_fee_percent, created_at) values (?, ?, ?, ?, ?, ?, ?)',
        [instanceId, policy.id, policy.version, policy.summary, JSON.stringify(policy.tiers), policy.no_show_fee_percent, now])
    },

    /** Writes the tour (its row, schedule rules and add-ons) as given, replacing what was there. */
    *putTour(instanceId: string, tour: CatalogTour, position: number): Plan<void> {
      yield* this.deleteTour(instanceId, tour.id)
      yield* statement(
        `insert into catalog_tours (instance_id, id, position, title, summary, description, duration_minutes, meeting_point, languages, tags,
         price, party_min, party_max, capacity, cutoff_minutes, confirmation, blackouts, archived)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [instanceId, tour.id, position, tour.title, tour.summary, tour.description, tour.duration_minutes, JSON.stringify(tour.meeting_point),
          JSON.stringify(tour.languages), JSON.stringify(tour.tags), tour.price, tour.party.min, tour.party.max, tour.capacity,
          tour.cutoff_minutes, tour.confirmation, JSON.stringify(tour.blackouts), tour.archived ? 1 : 0])
      for (const [position, rule] of tour.schedule.entries()) {
        yield* statement(
          'insert into catalog_schedule_rules (instance_id, tour_id, position, valid_from, valid_until, weekdays, times) values (?, ?, ?, ?, ?, ?, ?)',
          [instanceId, tour.id, position, rule.from, rule.until, JSON.stringify(rule.weekdays), JSON.stringify(rule.times)])
      }
      for (const [position, addon] of tour.addons.entries()) {
        yield* statement(
          'insert into catalog_addons (instance_id, tour_id, id, position, name, description, price, per, max_quantity) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [instanceId, tour.id, addon.id, position, addon.name, addon.description, addon.price, addon.per, addon.max_quantity])
      }
    },

    *setTourPosition(instanceId: string, tourId: string, position: number): Plan<void> {
      yield* statement('update catalog_tours set position = ? where instance_id = ? and id = ?', [position, instanceId, tourId])
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

    *setPromoCodePosition(instanceId: string, code: string, position: number): Plan<void> {
      yield* statement('update catalog_promo_codes set position = ? where instance_id = ? and code = ?', [position, instanceId, code])
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

function groupByTour<R extends { tour_id: string }>(rows: R[]): Map<string, R[]> {
  const groups = new Map<string, R[]>()
  for (const row of rows) {
    const group = groups.get(row.tour_id)
    if (group) group.push(row)
    else groups.set(row.tour_id, [row])
  }
  return groups
}

export type CatalogRepository = ReturnType<typeof catalogRepository>
