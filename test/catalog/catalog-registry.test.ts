import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { toInstance } from '../../src/catalog/catalog-file.ts'
import { searchTours } from '../../src/domain/tour-search.ts'
import type { CatalogInstance, CatalogTour } from '../../src/schemas/catalog.ts'
import { catalogEditor, type CatalogEdit, type CatalogScope } from '../../src/catalog/catalog-editor.ts'
import { CatalogRegistry } from '../../src/catalog/catalog-registry.ts'
import { buildInstanceCatalog, type InstanceCatalog } from '../../src/catalog/instance-catalog.ts'
import { openStore, type Store } from '../../src/store/store.ts'
import type { Outcome, Plan, Statement } from '../../src/store/write-plan.ts'
import { demoCatalog } from '../helpers/build.ts'
import { freshDatabase } from '../helpers/database.ts'

// Two nodes on one database: one edits through the catalog editor, the other's registry
// reloads. After each edit the reloading node must serve exactly what a node reading the
// whole instance afresh would, having read only the tours the edit wrote.

const LISBON = 'lx4t7k2m'
const ACTOR = { type: 'system', id: null, name: 'test' } as const
const NOW = Temporal.Instant.from('2026-06-01T08:00:00Z')

/** Tour rows the registry's reloads read, statement by statement (observed, not altered). */
function countingTourRows(store: Store): { store: Store, rows: () => number, reset(): void } {
  let rows = 0
  function* counted<T>(plan: Plan<T>): Plan<T> {
    let step = plan.next()
    while (!step.done) {
      const outcome: Outcome = yield step.value
      if ('sql' in step.value && /from catalog_tours where/.test((step.value as Statement).sql) && /^select \*/.test((step.value as Statement).sql)) rows += outcome.rows.length
      step = plan.next(outcome)
    }
    return step.value
  }
  return {
    store: { ...store, snapshot: (plan) => store.snapshot(() => counted(plan())) },
    rows: () => rows,
    reset: () => { rows = 0 },
  }
}

async function twoNodes(t: TestContext) {
  const database = await freshDatabase()
  const editing = await openStore(database.target)
  const other = await openStore(database.target, { migrate: false })
  t.after(async () => {
    await editing.close()
    await other.close()
    await database.drop()
  })
  const editor = catalogEditor(editing)
  await editor.seed(demoCatalog().instances, NOW)
  const counter = countingTourRows(other)
  const registry = new CatalogRegistry(counter.store, { holdSecondsOverride: null })
  await registry.refresh()
  const served = () => registry.byRef(LISBON)!
  return {
    served,
    tourRowsRead: counter.rows,
    async edit(edit: CatalogEdit, scope: CatalogScope) {
      const result = await editor.apply(LISBON, edit, { actor: ACTOR, now: NOW, scope })
      counter.reset()
      await registry.refresh()
      return result
    },
    /** What a node starting now would serve. */
    async fresh(): Promise<InstanceCatalog> {
      return buildInstanceCatalog(toInstance((await editor.read(LISBON))!, null), served().version)
    },
  }
}

const QUERIES = ['alfama', 'belem', 'tram', 'wine', 'sintra', 'lisbon', 'fado', 'walk', 'dawn', 'a']

/** The reloaded version serves what a fresh one does: the instance, the list, each tour and every search. */
function assertServesAsFresh(served: InstanceCatalog, fresh: InstanceCatalog) {
  assert.deepEqual(served.instance, fresh.instance)
  assert.deepEqual(served.tours, fresh.tours)
  assert.deepEqual([...served.tourById.keys()].sort(), [...fresh.tourById.keys()].sort())
  for (const [id, entry] of fresh.tourById) {
    assert.deepEqual([served.tourById.get(id)!.catalog, served.tourById.get(id)!.record, served.tourById.get(id)!.archived], [entry.catalog, entry.record, entry.archived], id)
  }
  for (const q of QUERIES) {
    assert.deepEqual(searchTours(served.searchIndex, q).map((p) => served.tours[p].id), searchTours(fresh.searchIndex, q).map((p) => fresh.tours[p].id), q)
  }
}

const withTour = (id: string, change: (tour: CatalogTour) => CatalogTour): CatalogEdit => (current) => ({
  ...current!, tours: current!.tours.map((tour) => (tour.id === id ? change(tour) : tour)),
})

test('a one-tour edit reaches the other node by reading that tour alone; every other tour is the same object as before', async (t) => {
  const nodes = await twoNodes(t)
  const before = nodes.served()
  await nodes.edit(withTour('alfama-walk', (tour) => ({ ...tour, price: tour.price + 100 })), { tours: ['alfama-walk'] })
  const after = nodes.served()
  assert.equal(after.version, before.version + 1)
  assert.equal(nodes.tourRowsRead(), 1)
  for (const [id, entry] of after.tourById) {
    if (id === 'alfama-walk') assert.equal(entry.record.price.amount, before.tourById.get(id)!.record.price.amount + 100)
    else assert.equal(entry, before.tourById.get(id), id)
  }
  assert.equal(after.searchIndex, before.searchIndex, 'no searched field changed')
  assertServesAsFresh(after, await nodes.fresh())
})

test('a retitled, an added, an archived and an unarchived tour each reach the other node, in list order and in search', async (t) => {
  const nodes = await twoNodes(t)
  const ids = nodes.served().instance.tours.map((tour) => tour.id)
  await nodes.edit(withTour(ids[1], (tour) => ({ ...tour, title: 'Lighthouse at Dawn', tags: [...tour.tags, 'lighthouse'] })), { tours: [ids[1]] })
  assert.deepEqual(searchTours(nodes.served().searchIndex, 'lighthouse').map((p) => nodes.served().tours[p].id), [ids[1]])
  assertServesAsFresh(nodes.served(), await nodes.fresh())

  const added = { ...nodes.served().instance.tours[0], id: 'sunset-sail', title: 'Sunset Sail on the Tagus' }
  await nodes.edit((current) => ({ ...current!, tours: [...current!.tours, added] }), { tours: ['sunset-sail'] })
  assert.equal(nodes.tourRowsRead(), 1)
  assert.equal(nodes.served().tours.at(-1)!.id, 'sunset-sail')
  assertServesAsFresh(nodes.served(), await nodes.fresh())

  await nodes.edit(withTour(ids[0], (tour) => ({ ...tour, archived: true })), { tours: [ids[0]] })
  assert.ok(!nodes.served().tours.some((tour) => tour.id === ids[0]))
  assertServesAsFresh(nodes.served(), await nodes.fresh())

  await nodes.edit(withTour(ids[0], ({ archived: _, ...tour }) => tour), { tours: [ids[0]] })
  assert.equal(nodes.served().tours[0].id, ids[0], 'back in its place')
  assertServesAsFresh(nodes.served(), await nodes.fresh())
})

test('a whole-catalog edit that deletes and reorders tours reaches the other node as a whole read', async (t) => {
  const nodes = await twoNodes(t)
  const reorderAndDrop: CatalogEdit = (current) => {
    const named = new Set(current!.promo_codes.flatMap((promo) => promo.tour_ids ?? []))
    const dropped = current!.tours.filter((tour) => !named.has(tour.id)).slice(0, 2).map((tour) => tour.id)
    return { ...current!, tours: current!.tours.filter((tour) => !dropped.includes(tour.id)).reverse() }
  }
  const result = await nodes.edit(reorderAndDrop, 'whole')
  assert.ok(result.changes.some((change) => change.action === 'tour.deleted'))
  assert.equal(nodes.tourRowsRead(), nodes.served().instance.tours.length, 'a deletion since: every tour read again')
  assertServesAsFresh(nodes.served(), await nodes.fresh())

  const ids = nodes.served().instance.tours.map((tour) => tour.id)
  await nodes.edit(withTour(ids[2], (tour) => ({ ...tour, capacity: tour.capacity + 1 })), { tours: [ids[2]] })
  assert.equal(nodes.tourRowsRead(), 1, 'and only what changed after that')
  assertServesAsFresh(nodes.served(), await nodes.fresh())
})

test('a settings edit reads no tour, and a new currency reaches every tour record', async (t) => {
  const nodes = await twoNodes(t)
  const before = nodes.served()
  await nodes.edit((current) => ({ ...current!, name: 'Renamed Tours' }), { tours: [] })
  assert.equal(nodes.tourRowsRead(), 0)
  assert.equal(nodes.served().instance.name, 'Renamed Tours')
  for (const [id, entry] of nodes.served().tourById) assert.equal(entry, before.tourById.get(id), id)

  await nodes.edit((current: CatalogInstance | null) => ({ ...current!, currency: 'GBP' }), { tours: [] })
  assert.equal(nodes.tourRowsRead(), 0)
  assert.ok(nodes.served().tours.every((tour) => tour.price.currency === 'GBP'))
  assertServesAsFresh(nodes.served(), await nodes.fresh())
})
