import { rmSync } from 'node:fs'
import { Temporal } from 'temporal-polyfill'
import type { KeyRole } from '../../src/domain/roles.ts'
import { staffAuth } from '../../src/services/staff-auth.ts'
import type { Db } from '../../src/store/database.ts'
import { openStore, type Store } from '../../src/store/store.ts'
import { startService } from './build.ts'
import { addDrillUnits, drillCatalog, drillCatalogFile } from './catalog-file.ts'
import { ApiClient } from './client.ts'
import { contractFor } from './contract.ts'
import { freshDatabase } from './database.ts'
import { startServer, type ServerProcess } from './server-process.ts'

export const RACE_TOUR = 'drill-departure'
/** Small, so the parties of a few sessions contend for it. */
export const RACE_CAPACITY = 6
/** Limited promo codes of each size in the race catalog; every run takes fresh ones. */
const PROMO_CODES_PER_LIMIT = 300
export const PROMO_LIMITS = [1, 2] as const
export type PromoLimit = typeof PROMO_LIMITS[number]

const promoCode = (maxUses: PromoLimit, n: number) => `RACE${maxUses}-${String(n).padStart(4, '0')}`

/**
 * Adds to a drill catalog promo codes valid for the drill tour with `max_uses` 1 and 2, so
 * runs can race checkouts for a code at its limit without sharing a code with another run,
 * and the drill tour's units (adult, child, infant on a lap), so runs race mixes of them.
 */
export function addRaceCatalog(catalog: any): void {
  addDrillUnits(catalog)
  const lisbon = catalog.instances[0]
  for (const maxUses of PROMO_LIMITS) {
    for (let n = 0; n < PROMO_CODES_PER_LIMIT; n++) {
      lisbon.promo_codes.push({
        code: promoCode(maxUses, n), kind: 'percent', value: 10,
        valid_from: '2026-01-01', valid_until: '2030-12-31', tour_ids: [RACE_TOUR], max_uses: maxUses,
      })
    }
  }
}

/** One node or several on one database, with what a race run needs from it. */
export interface RaceTarget {
  /** One client per node; a single-node target has one. */
  clients: ApiClient[]
  /** The shared database, for checking invariants after a run. */
  db: Db
  /** Departures of the drill tour that no earlier run of this target took. */
  takeStarts(count: number): Promise<string[]>
  /** A promo code with `maxUses` uses that no earlier run of this target took. */
  takePromo(maxUses: PromoLimit): string
  /** A new API key of the race instance (a reseller key sells every tour, with no commission), as its secret. */
  createKey(role: KeyRole): Promise<string>
  close(): Promise<void>
}

/** Keys are written to the shared database, as the CLI writes them; every node reads them from there. */
function keyMaker(store: Store, instanceRef: string): RaceTarget['createKey'] {
  return async (role) => (await staffAuth(store, 'race').createKey(instanceRef, { name: `race ${role}`, role }, { type: 'system', id: null, name: 'race' }, Temporal.Now.instant())).secret
}

function allocators(client: ApiClient): Pick<RaceTarget, 'takeStarts' | 'takePromo'> {
  const starts: string[] = []
  let nextDate: string | null = null
  let exhausted = false
  const promosTaken = new Map<PromoLimit, number>()
  return {
    async takeStarts(count) {
      // Availability is read 14 days at a time, as far into the horizon as runs need.
      while (starts.length < count && !exhausted) {
        const query = `/availability?tour=${RACE_TOUR}&days=14&party=1${nextDate ? `&date=${nextDate}` : ''}`
        const { status, body, text } = await client.get(query)
        if (status === 422 && body.code === 'date_out_of_range') { exhausted = true; break }
        if (status !== 200) throw new Error(`availability answered ${status}: ${text}`)
        for (const slot of body.slots as { start: string, bookable: boolean }[]) if (slot.bookable) starts.push(slot.start)
        const date = new Date(`${body.date}T00:00:00Z`)
        date.setUTCDate(date.getUTCDate() + 14)
        nextDate = date.toISOString().slice(0, 10)
      }
      if (starts.length < count) throw new Error(`the drill tour has no ${count} more bookable departures`)
      return starts.splice(0, count)
    },
    takePromo(maxUses) {
      const n = promosTaken.get(maxUses) ?? 0
      if (n >= PROMO_CODES_PER_LIMIT) throw new Error(`all ${PROMO_CODES_PER_LIMIT} promo codes with max_uses ${maxUses} are taken`)
      promosTaken.set(maxUses, n + 1)
      return promoCode(maxUses, n)
    },
  }
}

/** The app in this process on a fresh database (SQLite, or PostgreSQL under TEST_DATABASE_URL or `postgresUrl`). */
export async function oneNodeTarget(postgresUrl?: string | null): Promise<RaceTarget> {
  const catalog = drillCatalog(RACE_CAPACITY)
  addRaceCatalog(catalog)
  const service = await startService({ catalog, postgresUrl })
  const client = service.client()
  const createKey = keyMaker(service.context.store, catalog.instances[0].ref)
  return { clients: [client], db: service.context.store.db, ...allocators(client), createKey, close: service.close }
}

/**
 * `nodes` server processes on one fresh database, as behind a load balancer (on SQLite,
 * several processes on one file). Every answer is checked against their openapi.json.
 */
export async function clusterTarget(nodes: number, postgresUrl?: string | null): Promise<RaceTarget & { servers: ServerProcess[] }> {
  const { dir, catalogPath } = drillCatalogFile(RACE_CAPACITY, addRaceCatalog)
  const database = await freshDatabase(postgresUrl)
  const env = { DATABASE_URL: database.url, TOURDESK_CONFIG: catalogPath }
  const servers: ServerProcess[] = []
  let store: Awaited<ReturnType<typeof openStore>> | null = null
  const close = async () => {
    await Promise.all(servers.map((s) => s.stop('SIGTERM')))
    await store?.close()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    // The first node migrates alone; the others then start together (their migration is a no-op under the lock).
    servers.push(await startServer(env))
    servers.push(...await Promise.all(Array.from({ length: nodes - 1 }, () => startServer(env))))
    store = await openStore(database.target, { migrate: false })
    const document = await (await fetch(`${servers[0].origin}/api/lisbon/openapi.json`)).json() as Record<string, any>
    const contract = contractFor(document)
    const clients = servers.map((s) => new ApiClient(s.origin, 'lisbon', contract))
    const createKey = keyMaker(store, drillCatalog(RACE_CAPACITY).instances[0].ref)
    return { servers, clients, db: store.db, ...allocators(clients[0]), createKey, close }
  } catch (err) {
    await close()
    throw err
  }
}
