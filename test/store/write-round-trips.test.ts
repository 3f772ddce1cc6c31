import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { build } from '../helpers/build.ts'
import { ALFAMA, ALFAMA_TUE_0930, ALFAMA_TUE_1400, CONTACT, bookingRow, db, promoUses, seatsTaken, type Session } from '../helpers/booking-fixtures.ts'
import { testDialect } from '../helpers/database.ts'

/**
 * The guest's writes on PostgreSQL, counted at the pg client: a round trip starts whenever a
 * connection sends a statement while it waits for none (write-plan.ts, runPlanPipelined). Hold,
 * replace, release and checkout each take at most two, on the path where nothing races them.
 */
const skip = testDialect !== 'postgres' && 'round trips are a PostgreSQL matter (SQLite runs a plan in-process)'

interface Transaction {
  statements: string[]
  params: unknown[]
  roundTrips: number
}

/** Every transaction sent through pg's clients while `observe` runs. */
function observeTransactions() {
  const finished: Transaction[] = []
  const open = new WeakMap<pg.Client, Transaction>()
  const inFlight = new WeakMap<pg.Client, number>()
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, config: any, values?: any, callback?: any) {
    const text: string = typeof config === 'string' ? config : config.text
    if (/^begin\b/i.test(text)) open.set(this, { statements: [], params: [], roundTrips: 0 })
    const transaction = open.get(this)
    const waitingFor = inFlight.get(this) ?? 0
    if (transaction) {
      transaction.statements.push(text)
      transaction.params.push(...(Array.isArray(values) ? values : config.values ?? []))
      if (waitingFor === 0) transaction.roundTrips++
      if (/^(commit|rollback)\b/i.test(text)) {
        finished.push(transaction)
        open.delete(this)
      }
    }
    inFlight.set(this, waitingFor + 1)
    const answered = () => inFlight.set(this, inFlight.get(this)! - 1)
    if (typeof values === 'function') {
      const done = values
      values = (...args: unknown[]) => { answered(); done(...args) }
    } else if (typeof callback === 'function') {
      const done = callback
      callback = (...args: unknown[]) => { answered(); done(...args) }
    }
    const result = (query as Function).call(this, config, values, callback)
    if (result && typeof result.then === 'function') result.then(answered, answered)
    return result
  } as typeof query
  return {
    /** The write transactions (a plan's, marked by its begin) that carried `marker` among their parameters. */
    writesWith(marker: string): Transaction[] {
      return finished.filter((t) => t.statements[0].includes('set_config') && t.params.includes(marker))
    },
    restore() {
      pg.Client.prototype.query = query
    },
  }
}

async function roundTripsOf(session: Session, observed: ReturnType<typeof observeTransactions>, request: () => Promise<{ status: number, body: any }>) {
  const before = observed.writesWith(session.session).length
  const res = await request()
  assert.ok(res.status < 300, JSON.stringify(res.body))
  const writes = observed.writesWith(session.session).slice(before)
  assert.equal(writes.length, 1, `one write transaction: ${JSON.stringify(writes.map((w) => w.statements))}`)
  return { res, roundTrips: writes[0].roundTrips, statements: writes[0].statements.length }
}

test('hold, replace, release and checkout each reach PostgreSQL in at most two round trips', { skip }, async (t) => {
  const observed = observeTransactions()
  t.after(() => observed.restore())
  const service = await build(t)
  const client = service.client()
  const s = await client.session()

  const hold = await roundTripsOf(s, observed, () => client.post('/booking', ALFAMA, { headers: s.headers }))
  assert.ok(hold.roundTrips <= 2, `hold: ${hold.roundTrips} round trips`)
  assert.ok(hold.statements > hold.roundTrips, 'the hold sends several statements per round trip')

  const replace = await roundTripsOf(s, observed, () => client.post('/booking', { ...ALFAMA, start: ALFAMA_TUE_1400, promo_code: 'WELCOME10' }, { headers: s.headers }))
  assert.ok(replace.roundTrips <= 2, `replace: ${replace.roundTrips} round trips`)
  assert.equal((await bookingRow(service, hold.res.body.id)).status, 'released')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 0)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 2)

  const release = await roundTripsOf(s, observed, () => client.delete('/booking', { headers: s.headers }))
  assert.ok(release.roundTrips <= 2, `release: ${release.roundTrips} round trips`)
  assert.equal(release.res.body.status, 'released')
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_1400), 0)

  await roundTripsOf(s, observed, () => client.post('/booking', { ...ALFAMA, promo_code: 'WELCOME10' }, { headers: s.headers }))
  const checkout = await roundTripsOf(s, observed, () => client.post('/checkout', CONTACT, { headers: { 'x-session': s.session, 'idempotency-key': 'checkout-1' } }))
  assert.ok(checkout.roundTrips <= 2, `checkout: ${checkout.roundTrips} round trips`)
  const stored = await bookingRow(service, checkout.res.body.id)
  assert.equal(stored.status, checkout.res.body.status)
  assert.equal(stored.code, checkout.res.body.code)
  assert.equal(stored.version, 2)
  assert.equal(await promoUses(service, 'WELCOME10'), 1)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 2)
  // The event the checkout wrote holds the booking as it was stored, not as the plan foresaw it.
  const [event] = await db(service).selectFrom('events').select(['type', 'data']).where('subject_id', '=', stored.id).execute()
  assert.match(event.type, /^booking\.(requested|confirmed)$/)
  assert.deepEqual(JSON.parse(event.data), { ...stored })
})

test('a foreseen outcome that does not come is decided again on the real one: a hold that does not fit answers 409 and changes nothing', { skip }, async (t) => {
  const service = await build(t)
  const client = service.client()
  const s = await client.session()
  // Demo instance lx4t7k2m; alfama-walk seats 16, and one is left.
  await db(service).insertInto('departures').values({ instance_id: 'lx4t7k2m', tour_id: 'alfama-walk', start_at: '2026-06-02T08:30:00.000Z', capacity: 16, seats_taken: 15 }).execute()
  const res = await client.post('/booking', ALFAMA, { headers: s.headers })
  assert.equal(res.status, 409, JSON.stringify(res.body))
  assert.equal(res.body.remaining, 1)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), 15)
  assert.equal((await db(service).selectFrom('bookings').select('id').execute()).length, 0)
})
