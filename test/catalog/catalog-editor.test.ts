import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import { Temporal } from 'temporal-polyfill'
import { ApiError } from '../../src/errors/api-error.ts'
import type { CatalogInstance } from '../../src/schemas/catalog.ts'
import { catalogEditor, type CatalogEdit, type CatalogScope } from '../../src/catalog/catalog-editor.ts'
import { openStore } from '../../src/store/store.ts'
import { demoCatalog } from '../helpers/build.ts'
import { freshDatabase } from '../helpers/database.ts'

// An edit of one tour, a promo code, the policy or the settings is given only its part of the
// instance; the rules that span tours are checked against the others in the database.

const LISBON = 'lx4t7k2m'
const ACTOR = { type: 'system', id: null, name: 'test' } as const
const NOW = Temporal.Instant.from('2026-06-01T08:00:00Z')

async function editor(t: TestContext) {
  const database = await freshDatabase()
  const store = await openStore(database.target)
  t.after(async () => {
    await store.close()
    await database.drop()
  })
  const catalog = catalogEditor(store)
  await catalog.seed(demoCatalog().instances, NOW)
  const rows = () => store.db.selectFrom('catalog_tours').select(['id', 'position', 'updated_version']).where('instance_id', '=', LISBON).orderBy('position').execute()
  return {
    catalog,
    rows,
    apply: (edit: CatalogEdit, scope: CatalogScope) => catalog.apply(LISBON, edit, { actor: ACTOR, now: NOW, scope }),
  }
}

/** The field names of a refusal's errors[]. */
async function refusedFields(edit: Promise<unknown>): Promise<string[]> {
  try {
    await edit
  } catch (err) {
    if (err instanceof ApiError) return ((err.extra.errors ?? []) as Array<{ field: string }>).map((e) => e.field)
    throw err
  }
  assert.fail('the edit was not refused')
}

test('a one-tour edit is given that tour alone, and writes only its row, marked with the new catalog version', async (t) => {
  const { apply, rows } = await editor(t)
  const before = await rows()
  let given: CatalogInstance | null = null
  const result = await apply((current) => {
    given = current
    return { ...current!, tours: current!.tours.map((tour) => ({ ...tour, price: tour.price + 1 })) }
  }, { tours: [before[2].id] })
  assert.deepEqual(given!.tours.map((tour) => tour.id), [before[2].id])
  assert.deepEqual(result.changes.map((change) => [change.action, change.target.id, change.fields]), [['tour.updated', before[2].id, ['price']]])
  const after = await rows()
  assert.deepEqual(after.map((row) => [row.id, Number(row.position)]), before.map((row) => [row.id, Number(row.position)]))
  assert.deepEqual(after.filter((row) => Number(row.updated_version) === result.catalog_version).map((row) => row.id), [before[2].id])
})

test('a tour added on its own goes after the last one; a promo code may name tours outside its edit, not unknown ones', async (t) => {
  const { apply, rows, catalog } = await editor(t)
  const existing = await rows()
  const model = (await catalog.read(LISBON, { tours: [existing[0].id] }))!.tours[0]
  const added = await apply((current) => ({ ...current!, tours: [...current!.tours, { ...model, id: 'sunset-sail' }] }), { tours: ['sunset-sail'] })
  assert.deepEqual(added.changes.map((change) => [change.action, change.fields.includes('position')]), [['tour.created', true]])
  assert.deepEqual((await rows()).at(-1), { id: 'sunset-sail', position: existing.length, updated_version: added.catalog_version })

  const promo = { code: 'FAIR-2026', kind: 'percent' as const, value: 10, valid_from: '2026-01-01', valid_until: '2026-12-31' }
  const named = [existing[1].id, 'sunset-sail']
  const created = await apply((current) => ({ ...current!, promo_codes: [...current!.promo_codes, { ...promo, tour_ids: named }] }), { tours: [] })
  assert.deepEqual(created.changes.map((change) => change.action), ['promo_code.created'])
  const unknown = await refusedFields(apply((current) => ({
    ...current!, promo_codes: [...current!.promo_codes, { ...promo, code: 'FAIR-2027', tour_ids: [existing[1].id, 'nowhere'] }],
  }), { tours: [] }))
  assert.equal(unknown.length, 1)
  assert.match(unknown[0], /^promo_codes\[\d+\]\.tour_ids$/)
})
