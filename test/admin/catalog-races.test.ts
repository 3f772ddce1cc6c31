import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, type TestService } from '../helpers/build.ts'
import { ALFAMA_TUE_0930, CONTACT, db, seatsTaken } from '../helpers/booking-fixtures.ts'
import { manager, roomyCatalog } from './catalog-fixtures.ts'

const HOLDS = 100
const PARTY = 2
const ADDONS = { 'ginjinha-tasting': 2, 'illustrated-map': 1 }
const HOLD = { tour_id: 'alfama-walk', start: ALFAMA_TUE_0930, party: PARTY, addons: ADDONS }

/** A hold's price as [subtotal, ginjinha-tasting, illustrated-map]: each hold's must be all old or all new. */
const OLD_PRICES = [PARTY * 1900, PARTY * 350, 600]
const NEW_PRICES = [PARTY * 2500, PARTY * 400, 700]

/** Guest sessions made before the race, so the race itself is only holds and the operator's request. */
async function sessions(service: TestService, count: number) {
  const client = service.client()
  return Promise.all(Array.from({ length: count }, () => client.session()))
}

/** How many holds are in flight at once, and how many are answered before the operator's request is sent. */
const IN_FLIGHT = 10
const OPERATOR_AFTER = 30

interface Raced {
  answer: { status: number, body: any, text: string }
  /** Whether the hold was sent after the operator's request had been answered. */
  afterOperator: boolean
}

/**
 * The holds of `guests` over parallel HTTP, IN_FLIGHT at a time, with the operator's request
 * sent once OPERATOR_AFTER holds have been answered: holds are answered before it, while it
 * runs and after it, and each records which.
 */
async function race(service: TestService, guests: Awaited<ReturnType<typeof sessions>>, operatorRequest: () => Promise<{ status: number, text: string }>) {
  const client = service.client()
  const raced: Raced[] = []
  let next = 0
  let operatorAnswered = false
  let operator: Promise<{ status: number, text: string }> | null = null
  async function guestInTurn(): Promise<void> {
    while (next < guests.length) {
      const guest = guests[next++]
      const afterOperator = operatorAnswered
      raced.push({ answer: await client.post('/booking', HOLD, { headers: guest.headers }), afterOperator })
      if (raced.length === OPERATOR_AFTER) {
        operator = operatorRequest().then((answer) => {
          operatorAnswered = true
          return answer
        })
      }
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, guestInTurn))
  const operatorAnswer = await operator!
  assert.equal(operatorAnswer.status, 200, operatorAnswer.text)
  assert.ok(raced.some((r) => r.afterOperator), 'some holds were sent after the operator had an answer')
  return raced
}

const pricesOf = (booking: any) => [booking.price.subtotal, ...['ginjinha-tasting', 'illustrated-map'].map((id) => booking.addons.find((a: any) => a.id === id).amount)]

test('a price edit racing 100 parallel holds: every hold takes wholly the old prices or wholly the new ones, as stored and as answered', async (t) => {
  const service = await build(t, { catalog: roomyCatalog(1000) })
  const operator = await manager(service)
  const alfama = (await operator.get('/tours/alfama-walk')).body
  const addons = alfama.addons.map((addon: any) => ({ ...addon, price: addon.id === 'ginjinha-tasting' ? 400 : addon.id === 'illustrated-map' ? 700 : addon.price }))
  const raced = await race(service, await sessions(service, HOLDS), () => operator.patch('/tours/alfama-walk', { price: 2500, addons }))

  const seen = { old: 0, new: 0 }
  for (const { answer, afterOperator } of raced) {
    assert.equal(answer.status, 200, answer.text)
    const prices = pricesOf(answer.body)
    const which = JSON.stringify(prices) === JSON.stringify(OLD_PRICES) ? 'old' : JSON.stringify(prices) === JSON.stringify(NEW_PRICES) ? 'new' : null
    assert.ok(which, `a hold mixed the prices: ${JSON.stringify(prices)}`)
    if (afterOperator) assert.equal(which, 'new', 'a hold sent after the edit answered takes the new prices')
    seen[which]++
    assert.equal(answer.body.price.total, prices.reduce((sum, amount) => sum + amount, 0))
  }
  const rows = await db(service).selectFrom('bookings').selectAll().where('tour_id', '=', 'alfama-walk').execute()
  assert.equal(rows.length, HOLDS)
  for (const row of rows) {
    const lines = JSON.parse(row.addons) as Array<{ id: string, amount: number }>
    const stored = [row.subtotal, ...['ginjinha-tasting', 'illustrated-map'].map((id) => lines.find((l) => l.id === id)!.amount)]
    assert.ok([OLD_PRICES, NEW_PRICES].some((p) => JSON.stringify(p) === JSON.stringify(stored)), `a stored hold mixed the prices: ${JSON.stringify(stored)}`)
  }
  assert.ok(seen.old >= OPERATOR_AFTER && seen.new > 0, JSON.stringify(seen))
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), HOLDS * PARTY)
})

test('an archive racing holds: holds answered before stand (and check out), and once the archive has answered no new hold succeeds', async (t) => {
  const service = await build(t, { catalog: roomyCatalog(1000) })
  const operator = await manager(service)
  const raced = await race(service, await sessions(service, HOLDS), () => operator.post('/tours/alfama-walk/archive'))
  for (const { answer, afterOperator } of raced) {
    if (afterOperator) assert.deepEqual([answer.status, answer.body.code], [404, 'tour_not_found'], 'no hold succeeds once the archive has answered')
    else assert.ok(answer.status === 200 || (answer.status === 404 && answer.body.code === 'tour_not_found'), `a hold answered ${answer.status} ${answer.text}`)
  }
  const held = raced.filter((r) => r.answer.status === 200).map((r) => r.answer.body)
  assert.ok(held.length >= OPERATOR_AFTER, `${held.length} holds before the archive`)
  assert.equal(await seatsTaken(service, 'alfama-walk', ALFAMA_TUE_0930), held.length * PARTY, 'exactly the holds answered 200 took seats')
  const rows = await db(service).selectFrom('bookings').select(['id', 'status']).where('tour_id', '=', 'alfama-walk').execute()
  assert.deepEqual(rows.map((row) => row.id).sort(), held.map((booking) => booking.id).sort())
  assert.ok(rows.every((row) => row.status === 'held'), 'the holds made before stand')

  const client = service.client()
  const session = (await db(service).selectFrom('bookings').select('session_id').where('id', '=', held[0].id).executeTakeFirstOrThrow()).session_id
  const checkout = await client.post('/checkout', CONTACT, { headers: { 'x-session': session } })
  assert.deepEqual([checkout.status, checkout.body.status], [200, 'confirmed'], checkout.text)
})
