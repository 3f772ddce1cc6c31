import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CatalogFileError, parseCatalogFile } from '../../src/catalog/catalog-file.ts'
import { catalogIssues } from '../../src/domain/catalog-rules.ts'
import { build, demoCatalog } from '../helpers/build.ts'
import { assertProblem, catalogAudit, manager } from './catalog-fixtures.ts'

/** The demo catalog with a minimum to run on alfama-walk (capacity 16). */
function catalogWithMinimum(minimum: Record<string, unknown>) {
  const catalog = demoCatalog()
  Object.assign(catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk'), minimum)
  return catalog
}

test('the catalog file takes a minimum to run up to the capacity, its deadline only with it, and names the field it refuses', () => {
  const parse = (catalog: unknown) => parseCatalogFile(JSON.stringify(catalog), 'test.json')
  const [lisbon] = parse(catalogWithMinimum({ min_participants: 16, min_participants_deadline_hours: 48 }))
  assert.deepEqual(lisbon.tours[0], { ...lisbon.tours[0], min_participants: 16, min_participants_deadline_hours: 48 })
  assert.equal(parse(catalogWithMinimum({ min_participants: 4 }))[0].tours[0].min_participants_deadline_hours, undefined, 'the default is not written in')

  const refused = (minimum: Record<string, unknown>) => {
    try {
      parse(catalogWithMinimum(minimum))
    } catch (err) {
      assert.ok(err instanceof CatalogFileError, String(err))
      return [err.field, err.reason]
    }
    assert.fail(`${JSON.stringify(minimum)} was accepted`)
  }
  assert.deepEqual(refused({ min_participants: 17 }), ['instances[0].tours[0].min_participants', 'is above capacity'])
  assert.deepEqual(refused({ min_participants_deadline_hours: 24 })?.[0], 'instances[0].tours[0].min_participants_deadline_hours')
  assert.deepEqual(refused({ min_participants: 0 })?.[0], '/instances/0/tours/0/min_participants')
  assert.deepEqual(refused({ min_participants: 2, min_participants_deadline_hours: 0 })?.[0], '/instances/0/tours/0/min_participants_deadline_hours')
  assert.deepEqual(refused({ min_participants: 2.5 })?.[0], '/instances/0/tours/0/min_participants')

  const instance = parse(demoCatalog())[0]
  const tours = instance.tours.map((tour, t) => (t === 1 ? { ...tour, min_participants: tour.capacity + 1 } : tour))
  assert.deepEqual(catalogIssues({ ...instance, tours }), [{ field: 'tours[1].min_participants', message: 'is above capacity' }])
})

test('the operator API sets, changes and removes a tour\'s minimum; a minimum above capacity is 422 catalog_invalid naming the field', async (t) => {
  const service = await build(t)
  const operator = await manager(service)
  const tour = (await operator.get('/tours/alfama-walk')).body

  assertProblem(await operator.patch('/tours/alfama-walk', { min_participants: 17 }), 422, 'catalog_invalid', ['min_participants'])
  assertProblem(await operator.patch('/tours/alfama-walk', { min_participants_deadline_hours: 12 }), 422, 'catalog_invalid', ['min_participants_deadline_hours'])
  assertProblem(await operator.patch('/tours/alfama-walk', { capacity: 3, min_participants: 4, party: { min: 1, max: 3 } }), 422, 'catalog_invalid', ['min_participants'])
  const zero = await operator.patch('/tours/alfama-walk', { min_participants: 0 })
  assertProblem(zero, 400, 'validation_failed')
  assert.deepEqual([...new Set(zero.body.errors.map((e: { field: string }) => e.field))], ['min_participants'])
  assertProblem(await operator.patch('/tours/alfama-walk', { min_participants: '4' }), 400, 'validation_failed')
  assertProblem(await operator.post('/tours', { ...tour, archived: undefined, id: 'alfama-big-group', min_participants: 20 }), 422, 'catalog_invalid', ['min_participants'])

  const set = await operator.patch('/tours/alfama-walk', { min_participants: 4, min_participants_deadline_hours: 36 })
  assert.equal(set.status, 200, set.text)
  assert.deepEqual([set.body.tour.min_participants, set.body.tour.min_participants_deadline_hours], [4, 36])
  assert.deepEqual(set.body.changes.map((c: any) => [c.action, c.fields.sort()]), [['tour.updated', ['min_participants', 'min_participants_deadline_hours']]])
  const [audited] = await catalogAudit(service, 'catalog.tour.updated')
  assert.deepEqual([audited.before, audited.after], [
    { min_participants: null, min_participants_deadline_hours: null }, { min_participants: 4, min_participants_deadline_hours: 36 },
  ])
  assert.equal((await operator.get('/tours/alfama-walk')).body.min_participants, 4)

  const unset = await operator.patch('/tours/alfama-walk', { min_participants: null, min_participants_deadline_hours: null })
  assert.equal(unset.status, 200, unset.text)
  assert.equal('min_participants' in unset.body.tour, false)
  assert.equal('min_participants_deadline_hours' in unset.body.tour, false)

  const { archived: _archived, ...body } = tour
  const replaced = await operator.put('/tours/alfama-walk', { ...body, min_participants: 6 })
  assert.equal(replaced.status, 200, replaced.text)
  assert.deepEqual([replaced.body.tour.min_participants, 'min_participants_deadline_hours' in replaced.body.tour], [6, false])
})

test('a minimum survives the round trip: GET /catalog gives it back, and applying what it gave changes nothing', async (t) => {
  const service = await build(t, { catalog: catalogWithMinimum({ min_participants: 5, min_participants_deadline_hours: 30 }) })
  const operator = await manager(service)
  const exported = (await operator.get('/catalog')).body
  const alfama = exported.tours.find((tour: any) => tour.id === 'alfama-walk')
  assert.deepEqual([alfama.min_participants, alfama.min_participants_deadline_hours], [5, 30])
  assert.equal('min_participants' in exported.tours.find((tour: any) => tour.id === 'fado-night'), false)

  const again = await operator.put('/catalog', exported)
  assert.equal(again.status, 200, again.text)
  assert.deepEqual(again.body.changes, [])
  const ref = service.context.catalogs.get('lisbon')!.instance.ref
  const reapplied = await service.context.catalogEditor.apply(ref, () => exported, { dryRun: true, actor: { type: 'system', id: null, name: 'test' }, now: service.clock.now() })
  assert.deepEqual(reapplied.changes, [])
})
