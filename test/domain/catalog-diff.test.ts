import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { diffCatalog, samePolicyTerms } from '../../src/domain/catalog-diff.ts'
import { canonicalJson } from '../../src/domain/json-equal.ts'
import { catalogIssues } from '../../src/domain/catalog-rules.ts'
import type { CatalogInstance } from '../../src/schemas/catalog.ts'

const demo = (): CatalogInstance => structuredClone(JSON.parse(readFileSync(new URL('../../config/demo.json', import.meta.url), 'utf8')).instances[0])

describe('diffCatalog', () => {
  test('a new instance is created with its policy, every tour and every promo code', () => {
    const after = demo()
    const actions = diffCatalog(null, after).map((c) => c.action)
    assert.equal(actions[0], 'instance.created')
    assert.equal(actions.filter((a) => a === 'tour.created').length, after.tours.length)
    assert.equal(actions.filter((a) => a === 'promo_code.created').length, after.promo_codes.length)
    assert.ok(actions.includes('policy.published'))
  })

  test('the same catalog with its fields in another order changes nothing', () => {
    const before = demo()
    const reordered = JSON.parse(canonicalJson(before)) as CatalogInstance
    assert.deepEqual(diffCatalog(before, reordered), [])
  })

  test('a price edit is one tour.updated naming only price, before and after', () => {
    const before = demo()
    const after = demo()
    after.tours[1].price += 500
    assert.deepEqual(diffCatalog(before, after), [{
      action: 'tour.updated', target: { type: 'tour', id: after.tours[1].id }, before: { price: before.tours[1].price }, after: { price: after.tours[1].price },
    }])
  })

  test('archiving alone is tour.archived; a missing tour is tour.deleted; a missing promo code promo_code.deleted', () => {
    const before = demo()
    const after = demo()
    after.tours[0].archived = true
    const removed = after.tours.pop()!
    const removedPromo = after.promo_codes.pop()!
    const changes = diffCatalog(before, after)
    assert.deepEqual(changes.map((c) => [c.action, c.target.id]), [
      ['tour.archived', after.tours[0].id], ['tour.deleted', removed.id], ['promo_code.deleted', removedPromo.code],
    ])
  })

  test('settings changes are one settings.updated with the fields that changed', () => {
    const before = demo()
    const after = demo()
    after.name = 'Renamed'
    after.hold_minutes = 20
    const [change] = diffCatalog(before, after)
    assert.equal(change.action, 'settings.updated')
    assert.deepEqual(Object.keys(change.after!).sort(), ['hold_minutes', 'name'])
  })

  test('policy terms compare without the version', () => {
    const a = demo().cancellation_policy
    assert.ok(samePolicyTerms(a, { ...a, version: a.version + 3 }))
    assert.ok(!samePolicyTerms(a, { ...a, no_show_fee_percent: (a.no_show_fee_percent + 1) % 100 }))
  })
})

describe('catalogIssues', () => {
  test('the demo keeps every rule', () => {
    assert.deepEqual(catalogIssues(demo()), [])
  })

  test('each broken rule is named by its field', () => {
    const broken = demo()
    broken.timezone = 'Mars/Olympus'
    broken.tours[0].party = { min: 5, max: 3 }
    // tours[1], the sail, seats infants on laps (its party may outnumber its seats): tours[2] has no such unit.
    broken.tours[2].party.max = broken.tours[2].capacity + 1
    broken.promo_codes[0].tour_ids = ['moon-walk']
    const fields = catalogIssues(broken).map((i) => i.field)
    assert.deepEqual(fields, ['timezone', 'tours[0].party.min', 'tours[2].party.max', 'promo_codes[0].tour_ids'])
  })

  test('an instance whose every tour is archived is refused', () => {
    const instance = demo()
    for (const tour of instance.tours) tour.archived = true
    assert.deepEqual(catalogIssues(instance).map((i) => i.field), ['tours'])
  })
})
