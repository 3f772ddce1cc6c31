import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { buildSearchIndex, searchTours, searchWords } from '../../src/domain/tour-search.ts'
import type { CatalogTour } from '../../src/schemas/catalog.ts'

type SearchableTour = Pick<CatalogTour, 'title' | 'summary' | 'tags' | 'meeting_point'>

function tour(fields: { title: string, summary?: string, tags?: string[], meeting?: string, address?: string }): SearchableTour {
  return {
    title: fields.title,
    summary: fields.summary ?? '',
    tags: fields.tags ?? [],
    meeting_point: { name: fields.meeting ?? 'Somewhere', address: fields.address ?? '', lat: 0, lng: 0 },
  }
}

function search(tours: SearchableTour[], query: string): number[] {
  return searchTours(buildSearchIndex(tours), query)
}

describe('searchWords', () => {
  test('folds case and strips accents', () => {
    assert.deepEqual(searchWords('Belém À-Noite'), ['belem', 'a', 'noite'])
    assert.deepEqual(searchWords('BELÉM'), ['belem'])
    assert.deepEqual(searchWords('Pastéis de Nata, São Jorge'), ['pasteis', 'de', 'nata', 'sao', 'jorge'])
  })

  test('treats a decomposed accent like a composed one', () => {
    assert.deepEqual(searchWords('Bele\u0301m'), searchWords('Bel\u00e9m'))
  })

  test('splits on anything that is not a letter or digit, keeping digits', () => {
    assert.deepEqual(searchWords('  Tram 28 — Graça/Estrela!  '), ['tram', '28', 'graca', 'estrela'])
  })

  test('empty, whitespace and punctuation give no words', () => {
    assert.deepEqual(searchWords(''), [])
    assert.deepEqual(searchWords('   \t\n'), [])
    assert.deepEqual(searchWords(' - , ; '), [])
  })
})

describe('searchTours over small catalogs', () => {
  test('matches regardless of case and accents, in the query or the catalog', () => {
    const tours = [tour({ title: 'Riverside walk' }), tour({ title: 'Belém Bike Tour' }), tour({ title: 'Sintra coach' })]
    for (const q of ['belem', 'BELEM', 'Belém', 'bElÉm', 'BELÉM']) assert.deepEqual(search(tours, q), [1], q)
    const plain = [tour({ title: 'Belem Bike Tour' })]
    assert.deepEqual(search(plain, 'Belém'), [0])
  })

  test('every query word must match the same tour', () => {
    const tours = [tour({ title: 'Alfama walk' }), tour({ title: 'Alfama fado night' }), tour({ title: 'Fado museum' })]
    assert.deepEqual(search(tours, 'alfama fado'), [1])
    assert.deepEqual(search(tours, 'fado alfama'), [1])
    assert.deepEqual(search(tours, 'alfama cruise'), [])
  })

  test('the words may come from different fields', () => {
    const tours = [tour({ title: 'Fado night', meeting: 'Museu do Fado', address: 'Largo do Chafariz de Dentro, Alfama' })]
    assert.deepEqual(search(tours, 'fado chafariz'), [0])
  })

  test('a query word matches words it is a prefix of, not words it is inside', () => {
    const tours = [tour({ title: 'Alfama walk' }), tour({ title: 'Mouraria walk' })]
    assert.deepEqual(search(tours, 'alf'), [0])
    assert.deepEqual(search(tours, 'a'), [0])
    assert.deepEqual(search(tours, 'fama'), [])
    assert.deepEqual(search(tours, 'alfamas'), [])
  })

  test('title matches rank above summary-only matches, whatever the catalog order', () => {
    const tours = [
      tour({ title: 'Old town walk', summary: 'Ends at the tram stop.' }),
      tour({ title: 'Tram 28 ride', summary: 'Across the hills.' }),
    ]
    assert.deepEqual(search(tours, 'tram'), [1, 0])
  })

  test('fields rank title, then tags, then summary, then meeting point', () => {
    const tours = [
      tour({ title: 'A', meeting: 'Wine bar' }),
      tour({ title: 'B', summary: 'Some wine too.' }),
      tour({ title: 'C', tags: ['wine'] }),
      tour({ title: 'Wine tasting' }),
    ]
    assert.deepEqual(search(tours, 'wine'), [3, 2, 1, 0])
  })

  test('a whole-word match ranks above a prefix match in the same field', () => {
    const tours = [tour({ title: 'Porto day trip' }), tour({ title: 'Port tasting' })]
    assert.deepEqual(search(tours, 'port'), [1, 0])
  })

  test('ties keep catalog order', () => {
    const tours = [tour({ title: 'Sunset sail' }), tour({ title: 'Harbour walk' }), tour({ title: 'Sunset kayak' }), tour({ title: 'Sunset cruise' })]
    assert.deepEqual(search(tours, 'sunset'), [0, 2, 3])
  })

  test('an empty or whitespace-only query finds nothing', () => {
    const tours = [tour({ title: 'Alfama walk' })]
    assert.deepEqual(search(tours, ''), [])
    assert.deepEqual(search(tours, '   '), [])
    assert.deepEqual(search(tours, ' ,-! '), [])
  })

  test('a repeated query word counts once', () => {
    const tours = [tour({ title: 'Fado night' }), tour({ title: 'Old town', summary: 'fado' })]
    assert.deepEqual(search(tours, 'fado fado FADO'), search(tours, 'fado'))
  })

  test('an empty catalog finds nothing', () => {
    assert.deepEqual(search([], 'anything'), [])
  })
})

describe('searchTours over the demo catalog', () => {
  const demo = JSON.parse(readFileSync(new URL('../../config/demo.json', import.meta.url), 'utf8'))
  const lisbon: CatalogTour[] = demo.instances[0].tours
  const nyc: CatalogTour[] = demo.instances[1].tours
  const index = buildSearchIndex(lisbon)
  const ids = (q: string, tours = lisbon, idx = index) => searchTours(idx, q).map((i) => tours[i].id)

  test('"fado" finds the fado night first, then the walk whose summary mentions fado', () => {
    assert.deepEqual(ids('fado'), ['fado-night', 'alfama-walk'])
  })

  test('"pasteis nata" finds only the Pastéis de Nata workshop', () => {
    assert.deepEqual(ids('pasteis nata'), ['pastel-de-nata-workshop'])
  })

  test('"belem" in any case or accent finds the Belém bike tour first', () => {
    for (const q of ['belem', 'BELEM', 'Belém']) assert.deepEqual(ids(q), ['belem-bike', 'tagus-sunset-sail'], q)
  })

  test('"river" ties a tag match and a title prefix match, so catalog order decides', () => {
    assert.deepEqual(ids('river'), ['tagus-sunset-sail', 'belem-bike'])
  })

  test('each instance searches only its own tours', () => {
    assert.deepEqual(ids('fado', nyc, buildSearchIndex(nyc)), [])
    assert.deepEqual(ids('bridge', nyc, buildSearchIndex(nyc)), ['brooklyn-bridge-dumbo'])
  })
})
