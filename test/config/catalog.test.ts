import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { DEFAULT_HOLD_MINUTES, DEFAULT_HORIZON_DAYS, parseCatalog } from '../../src/catalog/catalog-file.ts'
import { ConfigError } from '../../src/config/config-error.ts'

const DEMO_TEXT = readFileSync(new URL('../../config/demo.json', import.meta.url), 'utf8')
const DEFAULT_DECOYS = ['company', 'fax', 'middle_name', 'nickname', 'website']

/** A fresh, mutable copy of the bundled demo catalog. */
function demo(): any {
  return JSON.parse(DEMO_TEXT)
}

/** The one-instance example from docs/catalog.md, which uses only required fields. */
function minimalExample(): any {
  const doc = readFileSync(new URL('../../docs/catalog.md', import.meta.url), 'utf8')
  const section = doc.slice(doc.indexOf('## Minimal example'))
  const block = /```json\n([\s\S]*?)```/.exec(section)
  assert.ok(block, 'docs/catalog.md has a json block under "Minimal example"')
  return JSON.parse(block[1])
}

function parse(catalog: unknown, holdSecondsOverride: number | null = null) {
  return parseCatalog(JSON.stringify(catalog), 'catalog.json', holdSecondsOverride)
}

/** The ConfigError parsing `text` throws. */
function configErrorFrom(text: string): ConfigError {
  try {
    parseCatalog(text, 'catalog.json', null)
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${String(err)}`)
    assert.match(err.message, /^TOURDESK_CONFIG catalog\.json/)
    return err
  }
  assert.fail('the catalog was accepted')
}

function rejectionOf(mutate: (catalog: any) => void): ConfigError {
  const catalog = demo()
  mutate(catalog)
  return configErrorFrom(JSON.stringify(catalog))
}

describe('parseCatalog accepts the bundled demo', () => {
  const instances = parseCatalog(DEMO_TEXT, 'config/demo.json', null)
  const tours = instances.flatMap((i) => i.tours)

  test('two instances, lisbon with at least six tours, then nyc', () => {
    assert.deepEqual(instances.map((i) => i.prefix), ['lisbon', 'nyc'])
    assert.ok(instances[0].tours.length >= 6, `lisbon has ${instances[0].tours.length} tours`)
    assert.equal(instances[0].timezone, 'Europe/Lisbon')
    assert.equal(instances[1].timezone, 'America/New_York')
  })

  test('tour capacities span 4 to 40', () => {
    const capacities = tours.map((t) => t.capacity)
    assert.equal(Math.min(...capacities), 4)
    assert.equal(Math.max(...capacities), 40)
  })

  test('both confirmation kinds and both add-on kinds occur', () => {
    assert.deepEqual([...new Set(tours.map((t) => t.confirmation))].sort(), ['instant', 'on_request'])
    assert.deepEqual([...new Set(tours.flatMap((t) => t.addons.map((a) => a.per)))].sort(), ['booking', 'person'])
  })

  test('hold_minutes and horizon_days become holdSeconds and horizonDays', () => {
    assert.deepEqual(instances.map((i) => [i.holdSeconds, i.horizonDays]), [[15 * 60, 365], [10 * 60, 180]])
    for (const instance of instances) {
      assert.equal('hold_minutes' in instance, false)
      assert.equal('horizon_days' in instance, false)
      assert.equal('allowed_origins' in instance, false)
    }
  })

  test('an instance without decoys or allowed_origins gets the defaults', () => {
    assert.deepEqual(instances[1].decoys, DEFAULT_DECOYS)
    assert.deepEqual(instances[1].allowedOrigins, [])
    assert.deepEqual(instances[0].allowedOrigins, ['https://alfama-tejo.example'])
  })
})

describe('parseCatalog settings', () => {
  test('holdSecondsOverride replaces hold_minutes in every instance', () => {
    assert.deepEqual(parse(demo(), 90).map((i) => i.holdSeconds), [90, 90])
  })

  test('the minimal example in docs/catalog.md parses, with every default filled in', () => {
    const [instance, ...rest] = parse(minimalExample())
    assert.equal(rest.length, 0)
    assert.equal(instance.prefix, 'porto')
    assert.equal(instance.horizonDays, 365)
    assert.equal(instance.holdSeconds, 900)
    assert.deepEqual(instance.decoys, DEFAULT_DECOYS)
    assert.deepEqual(instance.allowedOrigins, [])
  })

  test('the exported defaults are 365 days and 15 minutes', () => {
    assert.equal(DEFAULT_HORIZON_DAYS, 365)
    assert.equal(DEFAULT_HOLD_MINUTES, 15)
  })

  test('defaults apply when the optional fields are removed from the demo', () => {
    const catalog = demo()
    for (const instance of catalog.instances) {
      delete instance.horizon_days
      delete instance.hold_minutes
      delete instance.decoys
    }
    for (const instance of parse(catalog)) {
      assert.equal(instance.horizonDays, 365)
      assert.equal(instance.holdSeconds, 900)
      assert.deepEqual(instance.decoys, DEFAULT_DECOYS)
    }
  })

  test('an explicit decoy list is kept as written', () => {
    const catalog = demo()
    catalog.instances[0].decoys = ['fax', 'website']
    assert.deepEqual(parse(catalog)[0].decoys, ['fax', 'website'])
  })
})

describe('parseCatalog rejects a bad catalog with a ConfigError naming the field', () => {
  test('invalid JSON', () => {
    const err = configErrorFrom('{"instances": [')
    assert.match(err.message, /catalog\.json is not valid JSON/)
  })

  test('an unknown field is named with the path of the object that holds it', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[0].capcity = 16 })
    assert.match(err.message, /\/instances\/0\/tours\/0\/capcity is not a known field/)
  })

  test('an unknown top-level field', () => {
    const err = rejectionOf((c) => { c.version = 2 })
    assert.match(err.message, /\/version is not a known field/)
  })

  test('an unknown field is named in the message', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[0].capcity = 16 })
    assert.match(err.message, /capcity/)
  })

  test('a field of the wrong type', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[0].price = '45.00' })
    assert.match(err.message, /\/instances\/0\/tours\/0\/price must be integer/)
  })

  test('a missing required field', () => {
    const err = rejectionOf((c) => { delete c.instances[1].tours[0].capacity })
    assert.match(err.message, /\/instances\/1\/tours\/0 .*'capacity'/)
  })

  test('a time zone that does not exist', () => {
    const err = rejectionOf((c) => { c.instances[0].timezone = 'Mars/Olympus' })
    assert.match(err.message, /instances\[0\]\.timezone "Mars\/Olympus"/)
  })

  test('a bad time zone in the second instance names that instance', () => {
    const err = rejectionOf((c) => { c.instances[1].timezone = 'America/Gotham' })
    assert.match(err.message, /instances\[1\]\.timezone "America\/Gotham"/)
  })

  test('a fixed UTC offset is not an IANA time zone', () => {
    const err = rejectionOf((c) => { c.instances[0].timezone = '+01:00' })
    assert.match(err.message, /instances\[0\]\.timezone/)
  })

  test('party.min above party.max', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[1].party = { min: 5, max: 4 } })
    assert.match(err.message, /instances\[0\]\.tours\[1\]\.party\.min is above party\.max/)
  })

  test('party.max above capacity', () => {
    const err = rejectionOf((c) => {
      const t = c.instances[0].tours[2]
      t.party.max = t.capacity + 1
    })
    assert.match(err.message, /instances\[0\]\.tours\[2\]\.party\.max is above capacity/)
  })

  test('party.max above capacity is accepted where a unit takes fewer seats than the people it counts (infants on a lap)', () => {
    const catalog = demo()
    const sail = catalog.instances[0].tours[1]
    assert.ok(sail.units?.some((unit: { seats?: number }) => unit.seats === 0), 'the demo sail has a unit on a lap')
    sail.party.max = sail.capacity + 2
    assert.equal(parse(catalog)[0].tours[1].party.max, sail.capacity + 2)
    delete sail.units
    assert.throws(() => parse(catalog), /tours\[1\]\.party\.max is above capacity/)
  })

  test('party.max equal to capacity is accepted', () => {
    const catalog = demo()
    const t = catalog.instances[0].tours[1]
    t.party.max = t.capacity
    assert.equal(parse(catalog)[0].tours[1].party.max, t.capacity)
  })

  test('a tour id used twice in one instance', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[2].id = 'alfama-walk' })
    assert.match(err.message, /instances\[0\]\.tours\[2\]\.id "alfama-walk" is used twice/)
  })

  test('the same tour id in two instances is accepted', () => {
    const catalog = demo()
    catalog.instances[1].tours[0].id = 'alfama-walk'
    assert.equal(parse(catalog)[1].tours[0].id, 'alfama-walk')
  })

  test('a prefix used twice', () => {
    const err = rejectionOf((c) => { c.instances[1].prefix = 'lisbon' })
    assert.match(err.message, /instances\[1\]\.prefix "lisbon" is used twice/)
  })

  test('a ref used twice', () => {
    const err = rejectionOf((c) => { c.instances[1].ref = c.instances[0].ref })
    assert.match(err.message, /instances\[1\]\.ref "lx4t7k2m" is used twice/)
  })

  test('a schedule rule whose from is after its until', () => {
    const err = rejectionOf((c) => { c.instances[0].tours[3].schedule[1].from = '2027-11-01' })
    assert.match(err.message, /instances\[0\]\.tours\[3\]\.schedule\[1\]\.from is after until/)
  })

  test('a schedule rule of a single day (from equal to until) is accepted', () => {
    const catalog = demo()
    catalog.instances[0].tours[0].schedule[0].until = catalog.instances[0].tours[0].schedule[0].from
    assert.doesNotThrow(() => parse(catalog))
  })

  test('a promo code whose tour_ids name an unknown tour', () => {
    const err = rejectionOf((c) => { c.instances[0].promo_codes[1].tour_ids = ['tagus-sunset-sail', 'moon-walk'] })
    assert.match(err.message, /instances\[0\]\.promo_codes\[1\]\.tour_ids names unknown tour "moon-walk"/)
  })

  test('a promo code naming a tour of another instance', () => {
    const err = rejectionOf((c) => { c.instances[1].promo_codes[0].tour_ids = ['alfama-walk'] })
    assert.match(err.message, /instances\[1\]\.promo_codes\[0\]\.tour_ids names unknown tour "alfama-walk"/)
  })

  test('a percent promo above 100', () => {
    const err = rejectionOf((c) => { c.instances[0].promo_codes[0].value = 101 })
    assert.match(err.message, /instances\[0\]\.promo_codes\[0\]\.value a percentage is at most 100/)
  })

  test('a percent promo of exactly 100 and a fixed promo above 100 are accepted', () => {
    const catalog = demo()
    catalog.instances[0].promo_codes[0].value = 100
    catalog.instances[0].promo_codes[1].value = 5000
    assert.deepEqual(parse(catalog)[0].promo_codes.map((p) => p.value), [100, 5000])
  })

  test('a promo code valid_from after valid_until', () => {
    const err = rejectionOf((c) => { c.instances[0].promo_codes[0].valid_from = '2028-01-01' })
    assert.match(err.message, /instances\[0\]\.promo_codes\[0\]\.valid_from is after valid_until/)
  })

  test('a decoy that is not a known field name', () => {
    const err = rejectionOf((c) => { c.instances[0].decoys = ['company', 'email'] })
    assert.match(err.message, /instances\[0\]\.decoys "email" is not one of company, fax, middle_name, nickname, website/)
  })

  test('an add-on id used twice in one tour', () => {
    const err = rejectionOf((c) => {
      const addons = c.instances[0].tours[0].addons
      addons[1].id = addons[0].id
    })
    assert.match(err.message, /instances\[0\]\.tours\[0\]\.addons\[\d+\]\.id \"[a-z0-9-]+\" is used twice/)
  })
})
