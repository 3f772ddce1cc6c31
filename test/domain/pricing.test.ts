import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { priceBooking } from '../../src/domain/pricing.ts'
import { unitMix } from '../../src/domain/units.ts'
import type { ApiError } from '../../src/errors/api-error.ts'
import type { CatalogAddon } from '../../src/schemas/catalog.ts'

const photos: CatalogAddon = { id: 'photos', name: 'Photo pack', description: '', price: 1500, per: 'booking', max_quantity: 1 }
const tasting: CatalogAddon = { id: 'tasting', name: 'Pastry tasting', description: '', price: 350, per: 'person', max_quantity: 3 }

/** A party of a tour without units: that many of its implicit person unit at the per-person price. */
const persons = (price: number, party: number) => unitMix({ price }, { party })

describe('priceBooking', () => {
  test('the subtotal is the per-person price times the party', () => {
    assert.deepEqual(priceBooking({ units: persons(2500, 3), addons: [], promo: null }),
      { subtotal: 7500, addons: 0, discount: 0, total: 7500, lines: [] })
  })

  test('a per-booking add-on is price times quantity, whatever the party', () => {
    const price = priceBooking({ units: persons(2500, 4), addons: [{ addon: photos, quantity: 2 }], promo: null })
    assert.deepEqual(price.lines, [{ id: 'photos', name: 'Photo pack', quantity: 2, amount: 3000 }])
    assert.equal(price.addons, 3000)
    assert.equal(price.total, 10000 + 3000)
  })

  test('a per-person add-on counts the people who take it: price times quantity, not times the party as well', () => {
    const price = priceBooking({ units: persons(2500, 4), addons: [{ addon: tasting, quantity: 2 }], promo: null })
    assert.deepEqual(price.lines, [{ id: 'tasting', name: 'Pastry tasting', quantity: 2, amount: 350 * 2 }])
    assert.equal(price.total, 10000 + 700)
  })

  test('the whole party may take a per-person add-on', () => {
    const price = priceBooking({ units: persons(2500, 2), addons: [{ addon: tasting, quantity: 2 }], promo: null })
    assert.equal(price.addons, 700, 'a tasting for each of two people is two tastings')
  })

  test('a per-person quantity above the party is invalid_addon naming the add-on', () => {
    assert.throws(() => priceBooking({ units: persons(2500, 2), addons: [{ addon: tasting, quantity: 3 }], promo: null }),
      (err: ApiError) => err.code === 'invalid_addon' && err.status === 422
        && JSON.stringify(err.extra.errors) === JSON.stringify([{ field: 'addons.tasting', message: 'must be at most the party size, 2' }]))
  })

  test('a per-booking quantity is not bounded by the party', () => {
    const price = priceBooking({ units: persons(2500, 1), addons: [{ addon: { ...photos, max_quantity: 3 }, quantity: 3 }], promo: null })
    assert.equal(price.addons, 4500)
  })

  test('add-ons ordered zero times are dropped from the lines and the total', () => {
    const price = priceBooking({
      units: persons(2500, 2),
      addons: [{ addon: photos, quantity: 0 }, { addon: tasting, quantity: 1 }],
      promo: null,
    })
    assert.deepEqual(price.lines.map((l) => l.id), ['tasting'])
    assert.equal(price.addons, 350)
    assert.equal(price.total, 5350)
  })

  test('a percent discount is taken of subtotal plus add-ons', () => {
    const price = priceBooking({
      units: persons(2500, 2), addons: [{ addon: photos, quantity: 1 }], promo: { kind: 'percent', value: 10 },
    })
    assert.deepEqual(price, {
      subtotal: 5000, addons: 1500, discount: 650, total: 5850,
      lines: [{ id: 'photos', name: 'Photo pack', quantity: 1, amount: 1500 }],
    })
  })

  test('a percent discount is rounded half up to the minor unit', () => {
    // 10% of 1005 is 100.5 → 101; 10% of 1004 is 100.4 → 100; 15% of 1003 is 150.45 → 150; 15% of 1007 is 151.05 → 151
    const percentOff = (gross: number, value: number) =>
      priceBooking({ units: persons(gross, 1), addons: [], promo: { kind: 'percent', value } })
    assert.deepEqual([percentOff(1005, 10).discount, percentOff(1005, 10).total], [101, 904])
    assert.deepEqual([percentOff(1004, 10).discount, percentOff(1004, 10).total], [100, 904])
    assert.equal(percentOff(1003, 15).discount, 150)
    assert.equal(percentOff(1007, 15).discount, 151)
    assert.equal(percentOff(1, 50).discount, 1)
    assert.equal(percentOff(1, 49).discount, 0)
  })

  test('a 100% discount makes the booking free', () => {
    const price = priceBooking({ units: persons(1999, 3), addons: [], promo: { kind: 'percent', value: 100 } })
    assert.equal(price.discount, 5997)
    assert.equal(price.total, 0)
  })

  test('a fixed discount comes off the total', () => {
    const price = priceBooking({ units: persons(2500, 2), addons: [], promo: { kind: 'fixed', value: 500 } })
    assert.equal(price.discount, 500)
    assert.equal(price.total, 4500)
  })

  test('a fixed discount larger than the total brings it to zero, never below', () => {
    const price = priceBooking({ units: persons(300, 1), addons: [{ addon: tasting, quantity: 1 }], promo: { kind: 'fixed', value: 5000 } })
    assert.equal(price.discount, 650, 'the tour 300 and one tasting 350')
    assert.equal(price.total, 0)
  })

  test('a free tour with no add-ons costs nothing, with or without a promo', () => {
    assert.equal(priceBooking({ units: persons(0, 3), addons: [], promo: null }).total, 0)
    const fixed = priceBooking({ units: persons(0, 3), addons: [], promo: { kind: 'fixed', value: 500 } })
    assert.deepEqual([fixed.discount, fixed.total], [0, 0])
  })
})
