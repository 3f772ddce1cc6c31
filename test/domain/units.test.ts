import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { priceBooking } from '../../src/domain/pricing.ts'
import { describeUnits, unitMix, unitsOf } from '../../src/domain/units.ts'
import type { ApiError } from '../../src/errors/api-error.ts'
import type { CatalogUnit } from '../../src/schemas/catalog.ts'

// The seats-versus-people rule (src/domain/units.ts, docs/units.md) and pricing with units.

/** A boat trip's units: the first is the default one (one seat, one person), as the catalog rules demand. */
const boat = {
  price: 6500,
  units: [
    { id: 'adult', type: 'adult', name: 'Adult', price: 6500 },
    { id: 'child', type: 'child', name: 'Child', price: 3200, min_age: 4, max_age: 12, accompanied_by: ['adult', 'senior'] },
    { id: 'infant', type: 'infant', name: 'Infant', price: 0, seats: 0, max_quantity: 2, accompanied_by: ['adult', 'senior'] },
    { id: 'family', type: 'family', name: 'Family (2+2)', price: 18000, pax: 4, seats: 4, max_quantity: 1 },
    { id: 'senior', type: 'senior', name: 'Senior', price: 5000 },
    { id: 'group', type: 'other', name: 'Group of friends', price: 5500, min_quantity: 4, max_quantity: 8 },
  ] satisfies CatalogUnit[],
}

/** The refusal `fn` throws: its code, status and the fields its errors[] names. */
function refusal(fn: () => unknown): { code: string, status: number, fields: string[] } {
  try {
    fn()
  } catch (err) {
    const { code, status, extra } = err as ApiError
    return { code, status, fields: ((extra.errors ?? []) as { field: string }[]).map((e) => e.field) }
  }
  assert.fail('expected a refusal')
}

describe('unitsOf', () => {
  test('a tour without units has one implicit person unit at its price', () => {
    assert.deepEqual(unitsOf({ price: 1900 }), [{
      id: 'person', type: 'adult', name: 'Person', description: '', price: 1900, seats: 1, pax: 1,
      min_age: null, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [],
    }])
  })

  test('every default is filled in: seats 1, pax 1, min_quantity 1, no max, no ages, no company', () => {
    const [adult, child, infant, family] = unitsOf(boat)
    assert.deepEqual(adult, { id: 'adult', type: 'adult', name: 'Adult', description: '', price: 6500, seats: 1, pax: 1,
      min_age: null, max_age: null, min_quantity: 1, max_quantity: null, accompanied_by: [] })
    assert.deepEqual([child.min_age, child.max_age, child.accompanied_by], [4, 12, ['adult', 'senior']])
    assert.deepEqual([infant.seats, infant.pax, infant.max_quantity], [0, 1, 2])
    assert.deepEqual([family.seats, family.pax], [4, 4])
  })
})

describe('unitMix', () => {
  test('a party without units is that many of the first unit', () => {
    assert.deepEqual(unitMix(boat, { party: 3 }), {
      party: 3, seats: 3, lines: [{ id: 'adult', type: 'adult', name: 'Adult', quantity: 3, amount: 19500 }],
    })
    assert.deepEqual(unitMix({ price: 1900 }, { party: 2 }), {
      party: 2, seats: 2, lines: [{ id: 'person', type: 'adult', name: 'Person', quantity: 2, amount: 3800 }],
    })
  })

  test('lines come in the tour\'s order, whatever the order of the request, and quantity 0 books none', () => {
    const mix = unitMix(boat, { units: { child: 1, senior: 0, adult: 2 } })
    assert.deepEqual(mix.lines.map((line) => line.id), ['adult', 'child'])
    assert.deepEqual([mix.party, mix.seats], [3, 3])
    assert.equal(describeUnits(mix.lines), '2 Adult, 1 Child')
  })

  test('a family ticket counts four people in four seats at one price', () => {
    assert.deepEqual(unitMix(boat, { units: { family: 1 }, party: 4 }), {
      party: 4, seats: 4, lines: [{ id: 'family', type: 'family', name: 'Family (2+2)', quantity: 1, amount: 18000 }],
    })
  })

  test('an infant on a lap counts a person and takes no seat', () => {
    const mix = unitMix(boat, { units: { adult: 1, infant: 2 } })
    assert.deepEqual([mix.party, mix.seats], [3, 1])
    assert.deepEqual(mix.lines[1], { id: 'infant', type: 'infant', name: 'Infant', quantity: 2, amount: 0 })
  })

  test('an unknown unit id is invalid_unit naming units.<id>', () => {
    assert.deepEqual(refusal(() => unitMix(boat, { units: { adult: 1, pet: 1 } })), { code: 'invalid_unit', status: 422, fields: ['units.pet'] })
    assert.deepEqual(refusal(() => unitMix({ price: 1900 }, { units: { adult: 1 } })), { code: 'invalid_unit', status: 422, fields: ['units.adult'] },
      'a tour without units has only person')
  })

  test('a unit booked without any of its accompanied_by is unit_not_allowed naming it; any one of them will do', () => {
    assert.deepEqual(refusal(() => unitMix(boat, { units: { child: 2 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.child'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { infant: 1, family: 1 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.infant'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { child: 1, adult: 0 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.child'] },
      'an adult booked 0 times is not booked')
    assert.equal(unitMix(boat, { units: { child: 1, senior: 1 } }).party, 2)
  })

  test('a quantity below min_quantity or above max_quantity is unit_not_allowed naming the unit; 0 is always allowed', () => {
    assert.deepEqual(refusal(() => unitMix(boat, { units: { group: 3 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.group'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { group: 9 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.group'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { adult: 1, infant: 3 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.infant'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { family: 2 } })), { code: 'unit_not_allowed', status: 422, fields: ['units.family'] })
    assert.equal(unitMix(boat, { units: { group: 4 } }).party, 4)
    assert.equal(unitMix(boat, { units: { group: 8, infant: 0 } }).party, 8)
  })

  test('a party that is not the people the units count is party_mismatch naming party', () => {
    assert.deepEqual(refusal(() => unitMix(boat, { units: { family: 1 }, party: 1 })), { code: 'party_mismatch', status: 422, fields: ['party'] })
    assert.deepEqual(refusal(() => unitMix(boat, { units: { adult: 1, infant: 1 }, party: 1 })), { code: 'party_mismatch', status: 422, fields: ['party'] },
      'an infant is a person though it takes no seat')
  })
})

// ---------------------------------------------------------------- properties

/** A tour's units as the catalog rules allow them: a default first unit, then any others (no accompanied_by or bounds, so every mix is allowed). */
const unitsArbitrary = fc.tuple(
  fc.integer({ min: 0, max: 100_000 }),
  fc.array(fc.record({ price: fc.integer({ min: 0, max: 100_000 }), seats: fc.integer({ min: 0, max: 10 }), pax: fc.integer({ min: 1, max: 10 }) }),
    { maxLength: 9 }),
).map(([firstPrice, others]) => ({
  price: firstPrice,
  units: [{ price: firstPrice, seats: 1, pax: 1 }, ...others].map((unit, index): CatalogUnit => ({ id: `u${index}`, type: 'other', name: `Unit ${index}`, ...unit })),
}))

const tourAndMix = unitsArbitrary.chain((tour) => fc.tuple(fc.constant(tour),
  fc.array(fc.integer({ min: 0, max: 100 }), { minLength: tour.units.length, maxLength: tour.units.length })))

describe('unitMix and priceBooking, for random mixes', () => {
  test('subtotal = Σ quantity × price, seats = Σ quantity × seats, party = Σ quantity × pax', () => {
    fc.assert(fc.property(tourAndMix, ([tour, quantities]) => {
      const units = Object.fromEntries(tour.units.map((unit, index) => [unit.id, quantities[index]]))
      const mix = unitMix(tour, { units })
      const sum = (of: (unit: CatalogUnit) => number) => tour.units.reduce((total, unit, index) => total + quantities[index] * of(unit), 0)
      assert.equal(priceBooking({ units: mix, addons: [], promo: null }).subtotal, sum((unit) => unit.price))
      assert.equal(mix.seats, sum((unit) => unit.seats ?? 1))
      assert.equal(mix.party, sum((unit) => unit.pax ?? 1))
      assert.deepEqual(mix.lines.map((line) => line.quantity), quantities.filter((quantity) => quantity > 0))
      // The same mix with its party given agrees, and one person more or less is refused.
      assert.deepEqual(unitMix(tour, { units, party: mix.party }), mix)
      assert.equal(refusal(() => unitMix(tour, { units, party: mix.party + 1 })).code, 'party_mismatch')
    }))
  })

  test('a party-only request prices exactly as price × party did before units, with or without a units list', () => {
    fc.assert(fc.property(unitsArbitrary, fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100 }),
      (tour, party, percent) => {
        const promo = percent === 0 ? null : { kind: 'percent' as const, value: percent }
        // Before units: subtotal = price × party, then the promo on it (src/domain/pricing.ts).
        const before = tour.price * party
        const expected = { subtotal: before, addons: 0, discount: promo === null ? 0 : Math.floor((before * percent + 50) / 100) }
        for (const withUnits of [tour, { price: tour.price }]) {
          const mix = unitMix(withUnits, { party })
          assert.deepEqual([mix.party, mix.seats], [party, party])
          const priced = priceBooking({ units: mix, addons: [], promo })
          assert.deepEqual({ subtotal: priced.subtotal, addons: priced.addons, discount: priced.discount }, expected)
          assert.equal(priced.total, before - expected.discount)
        }
      }))
  })
})
