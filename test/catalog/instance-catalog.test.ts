import assert from 'node:assert/strict'
import { test } from 'node:test'
import { toInstance } from '../../src/catalog/catalog-file.ts'
import type { CatalogInstance } from '../../src/schemas/catalog.ts'
import { searchTours } from '../../src/domain/tour-search.ts'
import { buildInstanceCatalog } from '../../src/catalog/instance-catalog.ts'
import { demoCatalog } from '../helpers/build.ts'

// A catalog version is built from the whole instance as the database holds it; what the
// edit did not touch is taken over from the version before.

const lisbon = (): CatalogInstance => structuredClone(demoCatalog().instances[0])
const build = (raw: CatalogInstance, previous?: ReturnType<typeof buildInstanceCatalog>) => buildInstanceCatalog(toInstance(raw, null), previous ? previous.version + 1 : 1, previous)

test('a price edit takes over every other tour and the search index, and builds the edited tour afresh', () => {
  const v1 = build(lisbon())
  const raw = lisbon()
  raw.tours[2].price += 100
  const v2 = build(raw, v1)
  for (const [id, entry] of v2.tourById) {
    if (id === raw.tours[2].id) {
      assert.notEqual(entry, v1.tourById.get(id))
      assert.equal(entry.record.price.amount, raw.tours[2].price)
    } else {
      assert.equal(entry, v1.tourById.get(id), `${id} is the same object`)
    }
  }
  assert.equal(v2.searchIndex, v1.searchIndex)
  assert.deepEqual(v2.tours, build(raw).tours, 'the same tours as a version built from nothing')
  assert.equal(v2.instance.tours[2], v2.tourById.get(raw.tours[2].id)!.catalog)
})

test('a title edit, an archived tour or a new order builds the search index again', () => {
  const v1 = build(lisbon())
  const titled = lisbon()
  titled.tours[0].title = 'Alfama at Dawn'
  assert.notEqual(build(titled, v1).searchIndex, v1.searchIndex)
  const archived = lisbon()
  archived.tours[1].archived = true
  const v2 = build(archived, v1)
  assert.notEqual(v2.searchIndex, v1.searchIndex)
  assert.deepEqual(v2.tours.map((t) => t.id), archived.tours.filter((t) => !t.archived).map((t) => t.id))
  const reordered = lisbon()
  reordered.tours.reverse()
  assert.notEqual(build(reordered, v1).searchIndex, v1.searchIndex)
})

test('nothing is taken over from a version of another policy or currency, which every tour record names', () => {
  const v1 = build(lisbon())
  const policy = lisbon()
  policy.cancellation_policy.id = 'strict-72'
  const v2 = build(policy, v1)
  for (const [id, entry] of v2.tourById) {
    assert.notEqual(entry, v1.tourById.get(id))
    assert.equal(entry.record.policy_id, 'strict-72')
  }
  const currency = lisbon()
  currency.currency = 'GBP'
  for (const tour of build(currency, v1).tours) assert.equal(tour.price.currency, 'GBP')
})

test('a chain of versions, each built from the one before, searches as a version built from nothing', () => {
  const queries = ['alfama', 'belem', 'tram', 'wine', 'sintra', 'lisbon', 'fado', 'walk', 'sunset', 'river', 'a', 'the']
  let random = 7
  const next = (n: number) => {
    random = (random * 1103515245 + 12345) % 2147483648
    return Math.floor(random / 65536) % n
  }
  let raw = lisbon()
  let version = build(raw)
  for (let step = 0; step < 60; step++) {
    raw = structuredClone(raw)
    const tour = raw.tours[next(raw.tours.length)]
    const edit = next(5)
    if (edit === 0) tour.title = `${['Sunset', 'River', 'Fado'][next(3)]} ${tour.title.split(' ').slice(-2).join(' ')}`
    else if (edit === 1) raw.tours.push({ ...structuredClone(tour), id: `copy-${step}`, tags: ['sunset'] })
    else if (edit === 2 && raw.tours.filter((t) => !t.archived).length > 1) tour.archived = true
    else if (edit === 3) delete tour.archived
    else raw.tours.splice(raw.tours.indexOf(tour), 1)
    version = build(raw, version)
    const fresh = build(raw)
    for (const q of queries) {
      assert.deepEqual(searchTours(version.searchIndex, q).map((p) => version.tours[p].id), searchTours(fresh.searchIndex, q).map((p) => fresh.tours[p].id), `step ${step}: ${q}`)
    }
    assert.deepEqual(version.tours, fresh.tours)
    const { words, starts } = version.searchIndex
    assert.ok(words.every((_, i) => starts[i + 1] > starts[i]), `step ${step}: a word no tour has left the index`)
  }
})
