import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, demoCatalog } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, holding } from '../helpers/booking-fixtures.ts'
import { assertProblem, catalogAudit, catalogVersion, manager } from './catalog-fixtures.ts'

// Units (price categories) through the operator catalog API: written as given, read back as
// written, checked by the catalog rules with errors naming units[j].field (docs/catalog.md, "units").

const ADULT = { id: 'adult', type: 'adult', name: 'Adult', price: 1900, min_age: 13 }
const CHILD = { id: 'child', type: 'child', name: 'Child', price: 900, min_age: 4, max_age: 12, accompanied_by: ['adult'] }
const INFANT = { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_age: 3, max_quantity: 2, accompanied_by: ['adult'] }
const FAMILY = { id: 'family', type: 'family', name: 'Family (2 adults, 2 children)', price: 5000, seats: 4, pax: 4, max_quantity: 1 }

/**
 * The demo with the walk's translations of its implicit "person" unit left out: these tests give
 * the walk units of their own, which translations naming "person" would refuse (a translated
 * unit must be one of the tour's).
 */
function catalogForUnits(): any {
  const catalog = demoCatalog()
  const walk = catalog.instances[0].tours.find((tour: any) => tour.id === 'alfama-walk')
  for (const texts of Object.values(walk.translations ?? {}) as any[]) delete texts.units
  return catalog
}

test('PATCH units: the operator reads them back as written, guests see them with every default filled, and a party-only booking pays as before', async (t) => {
  const service = await build(t, { catalog: catalogForUnits() })
  const operator = await manager(service)
  const units = [ADULT, CHILD, INFANT, FAMILY]
  const edited = await operator.patch('/tours/alfama-walk', { units })
  assert.equal(edited.status, 200, edited.text)
  assert.deepEqual(edited.body.tour.units, units)
  assert.deepEqual(edited.body.changes.map((c: any) => [c.action, c.fields, c.unit_changes]),
    [['tour.updated', ['units'], ["person (implicit, at the tour's price) removed", 'adult added', 'child added', 'infant added', 'family added']]])
  assert.deepEqual((await operator.get('/tours/alfama-walk')).body.units, units)
  const [entry] = await catalogAudit(service, 'catalog.tour.updated')
  assert.deepEqual([entry.before, entry.after], [{ units: null }, { units }])

  const guestUnits = (await service.client().get('/tours/alfama-walk')).body.units
  assert.deepEqual(guestUnits.map((u: any) => [u.id, u.price.amount, u.seats, u.pax, u.min_quantity, u.max_quantity, u.accompanied_by]), [
    ['adult', 1900, 1, 1, 1, null, []], ['child', 900, 1, 1, 1, null, ['adult']], ['infant', 0, 0, 1, 1, 2, ['adult']], ['family', 5000, 4, 4, 1, 1, []]])
  const { booking } = await holding(service.client(), { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 2 })
  assert.deepEqual([booking.price.subtotal, booking.seats, booking.units.map((u: any) => [u.id, u.quantity])], [3800, 2, [['adult', 2]]])

  const reordered = await operator.patch('/tours/alfama-walk', { units: [ADULT, { ...INFANT, max_quantity: 1 }, CHILD] })
  assert.equal(reordered.status, 200, reordered.text)
  assert.deepEqual(reordered.body.changes[0].unit_changes, ['family removed', 'infant: max_quantity', 'order: adult, infant, child'])

  const removed = await operator.patch('/tours/alfama-walk', { units: null })
  assert.equal(removed.status, 200, removed.text)
  assert.equal('units' in removed.body.tour, false, 'null removes the units')
  assert.deepEqual(removed.body.changes[0].unit_changes, ['adult removed', 'infant removed', 'child removed', "person (implicit, at the tour's price) added"])
  assert.deepEqual((await service.client().get('/tours/alfama-walk')).body.units.map((u: any) => [u.id, u.name, u.price.amount]), [['person', 'Person', 1900]])
})

test('every unit rule is 422 catalog_invalid naming the unit\'s field, on PATCH, POST and PUT /catalog; nothing changes', async (t) => {
  const service = await build(t, { catalog: catalogForUnits() })
  const operator = await manager(service)
  const version = await catalogVersion(service)
  const patch = (units: unknown[], extra: object = {}) => operator.patch('/tours/alfama-walk', { units, ...extra })
  assertProblem(await patch([ADULT, CHILD, { ...CHILD, name: 'Kid' }]), 422, 'catalog_invalid', ['units[2].id'])
  assertProblem(await patch([ADULT, { ...CHILD, accompanied_by: ['grown-up'] }]), 422, 'catalog_invalid', ['units[1].accompanied_by'])
  assertProblem(await patch([ADULT, { ...CHILD, accompanied_by: ['child'] }]), 422, 'catalog_invalid', ['units[1].accompanied_by'])
  assertProblem(await patch([ADULT, { ...CHILD, min_age: 13, max_age: 12 }]), 422, 'catalog_invalid', ['units[1].min_age'])
  assertProblem(await patch([ADULT, { ...INFANT, min_quantity: 3 }]), 422, 'catalog_invalid', ['units[1].min_quantity'])
  assertProblem(await patch([INFANT, ADULT]), 422, 'catalog_invalid', ['units[0].seats', 'units[0].accompanied_by', 'price'])
  assertProblem(await patch([FAMILY, ADULT]), 422, 'catalog_invalid', ['units[0].seats', 'units[0].pax', 'price'])
  // The tour's price is its first unit's: an API edit of one alone is refused naming price, so a client never changes a price it did not send.
  assertProblem(await patch([{ ...ADULT, price: 2100 }, CHILD]), 422, 'catalog_invalid', ['price'])
  assert.equal(await catalogVersion(service), version)
  const alfama = (await operator.get('/tours/alfama-walk')).body
  assertProblem(await operator.post('/tours', { ...alfama, id: 'alfama-kids', units: [ADULT, { ...CHILD, accompanied_by: ['parent'] }] }),
    422, 'catalog_invalid', ['units[1].accompanied_by'])
  const catalog = (await operator.get('/catalog')).body
  catalog.tours[1].units = [{ ...ADULT, price: catalog.tours[1].price }, { ...CHILD, accompanied_by: ['nobody'] }]
  assertProblem(await operator.put('/catalog', catalog), 422, 'catalog_invalid', ['tours[1].units[1].accompanied_by'])
  assert.equal(await catalogVersion(service), version, 'a refused edit changes nothing')

  assertProblem(await patch([{ ...ADULT, type: 'grown-up' }]), 400, 'validation_failed')
  assertProblem(await patch([{ ...ADULT, id: 'Adult' }]), 400, 'validation_failed')
  assertProblem(await patch([]), 400, 'validation_failed')
  assertProblem(await patch(Array.from({ length: 11 }, (_, i) => ({ ...ADULT, id: `a${i}` }))), 400, 'validation_failed')
  assertProblem(await patch([{ ...ADULT, colour: 'red' }]), 400, 'validation_failed')

  const both = await patch([{ ...ADULT, price: 2100 }, CHILD], { price: 2100 })
  assert.equal(both.status, 200, both.text)
  assert.equal((await service.client().get('/tours/alfama-walk')).body.price.amount, 2100)
  assertProblem(await operator.patch('/tours/alfama-walk', { price: 2300 }), 422, 'catalog_invalid', ['price'])
})

test("a unit price edit leaves an existing booking's unit lines and total alone", async (t) => {
  const service = await build(t, { catalog: catalogForUnits() })
  const operator = await manager(service)
  assert.equal((await operator.patch('/tours/alfama-walk', { units: [ADULT, CHILD] })).status, 200)
  const guest = service.client()
  const { booking, session } = await holding(guest, { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: 3, units: { adult: 2, child: 1 } })
  const lines = booking.units
  assert.deepEqual(lines.map((line: any) => [line.id, line.quantity]), [['adult', 2], ['child', 1]])
  const edit = await operator.patch('/tours/alfama-walk', { price: 2500, units: [{ ...ADULT, price: 2500, name: 'Grown-up' }, { ...CHILD, price: 1200 }] })
  assert.equal(edit.status, 200, edit.text)
  const after = (await guest.get('/booking', { headers: session.headers })).body
  assert.deepEqual(after.units, lines)
  assert.deepEqual([after.price.subtotal, after.price.total], [booking.price.subtotal, booking.price.total])
  assert.equal(booking.price.subtotal, 2 * 1900 + 900)
})
