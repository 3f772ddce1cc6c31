import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Availability } from '../../src/schemas/availability.ts'
import { availabilityWindow } from '../../src/services/availability.ts'
import { AvailabilityAnswers } from '../../src/services/availability-answers.ts'
import type { Store } from '../../src/store/store.ts'
import { ALFAMA, holding } from '../helpers/booking-fixtures.ts'
import { build } from '../helpers/build.ts'
import { testDialect } from '../helpers/database.ts'

// After a commit every reader of a busy window misses the kept answer at once (a catalog
// editor making ten edits a second makes ten such moments a second): they share one read.

const READERS = 20

test(`readers who miss a kept availability answer together share one database read (${testDialect})`, async (t) => {
  const service = await build(t)
  const { store } = service.context
  let reads = 0
  const departures = { ...store.departures, seatsInWindow: (...args: Parameters<Store['departures']['seatsInWindow']>) => {
    reads++
    return store.departures.seatsInWindow(...args)
  } }
  const answers = new AvailabilityAnswers({ ...store, departures }, true)
  const catalog = service.context.catalogs.get('lisbon')!
  const readAll = () => {
    const now = service.clock.now()
    const window = availabilityWindow(catalog, now, { tour: 'alfama-walk', date: '2026-06-02', days: 2 })
    return Promise.all(Array.from({ length: READERS }, () => answers.body(catalog, now, window, (answer: Availability) => JSON.stringify(answer))))
  }

  const first = await readAll()
  assert.equal(reads, 1)
  assert.ok(first.every((body) => body.equals(first[0])))

  await holding(service.client(), ALFAMA)
  const after = await readAll()
  assert.equal(reads, 2, 'one read after the commit, whoever asked')
  assert.ok(after.every((body) => body.equals(after[0])))
  assert.notDeepEqual(after[0], first[0], 'and it sees the hold')
})
