import { Temporal } from 'temporal-polyfill'
import { runHousekeeping } from '../src/jobs/housekeeping.ts'
import { startService, type StartedService } from '../test/helpers/build.ts'
import { drillCatalog } from '../test/helpers/catalog-file.ts'
import type { ApiClient, ApiResponse } from '../test/helpers/client.ts'
import { ManualClock } from '../test/helpers/manual-clock.ts'
import { checkSeats, countLost } from './ledger.ts'
import { emptyOutcome, type DrillOutcome } from './outcome.ts'

const TOUR = 'drill-departure'
const CAPACITY = 12
const HOLD_MINUTES = 15
const CONTACT = { name: 'Drill Client', email: 'drill@example.pt' }

/** Counts every request the drill makes and what the service promised. */
class Tally {
  attempted = 0
  acknowledged = 0
  /** Checkouts answered 200: their bookings must be requested or confirmed at the end. */
  readonly checkedOut: string[] = []

  constructor(private readonly client: ApiClient) {}

  async send(method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown): Promise<ApiResponse> {
    this.attempted++
    const res = await this.client.request(method, path, { headers, body })
    if (res.status === 200) {
      this.acknowledged++
      if (path === '/checkout') this.checkedOut.push(res.body.id)
    }
    return res
  }

  async hold(start: string, party: number) {
    const session = await this.client.session()
    const res = await this.send('POST', '/booking', session.headers, { tour_id: TOUR, start, party })
    if (res.status !== 200) throw new Error(`hold answered ${res.status}: ${res.text}`)
    return { headers: session.headers, booking: res.body as { id: string, hold_expires_at: string, created_at?: string } }
  }

  checkout(headers: Record<string, string>) {
    return this.send('POST', '/checkout', headers, CONTACT)
  }
}

/** The first departure of the drill tour on a local date. */
async function departureOn(client: ApiClient, date: string): Promise<string> {
  const res = await client.get(`/availability?tour=${TOUR}&date=${date}&days=1&party=1`)
  const slot = (res.body.slots as { start: string, bookable: boolean }[] | undefined)?.find((s) => s.bookable)
  if (!slot) throw new Error(`no bookable departure on ${date}: ${res.text}`)
  return slot.start
}

function minutesBetween(from: Temporal.Instant, to: Temporal.Instant): number {
  return from.until(to).total('minutes')
}

/**
 * Moves the injected clock between hold and checkout: forward past the hold, backwards,
 * and across both daylight-saving changes of Lisbon. Seats must be freed exactly once,
 * a hold's expiry instant must stay creation + hold_minutes, and checkouts must follow it.
 */
export async function clockJumpsDrill(title: string, postgresUrl: string | null): Promise<DrillOutcome> {
  const outcome = emptyOutcome(title, postgresUrl ? 'PostgreSQL' : 'SQLite')
  const clock = new ManualClock('2026-06-01T08:00:00Z')
  const service = await startService({ catalog: drillCatalog(CAPACITY), clock, postgresUrl })
  const tally = new Tally(service.client())
  const expect = (ok: boolean, failure: string) => { if (!ok) outcome.failures.push(failure) }
  try {
    await forwardPastTheHold(service, tally, expect, outcome)
    await backwards(service, tally, expect, outcome)
    await acrossDaylightSaving(service, tally, expect, outcome, { name: 'spring forward', date: '2026-03-29', holdAt: '2026-03-29T00:50:00Z', expiresAt: '2026-03-29T02:05:00+01:00' })
    await acrossDaylightSaving(service, tally, expect, outcome, { name: 'fall back', date: '2026-10-25', holdAt: '2026-10-25T00:55:00Z', expiresAt: '2026-10-25T01:10:00+00:00' })

    const { db } = service.context.store
    outcome.lost = await countLost(db, tally.checkedOut.map((id) => ({ bookingId: id, statuses: ['requested', 'confirmed'] })))
    const seats = await checkSeats(db, TOUR)
    outcome.overCapacity = seats.overCapacity
    outcome.failures.push(...seats.seatMismatches)
    outcome.attempted = tally.attempted
    outcome.acknowledged = tally.acknowledged
  } finally {
    await service.close()
  }
  return outcome
}

type Expect = (ok: boolean, failure: string) => void

/**
 * Six holds; the clock jumps to the exact instant they lapse, then every way of touching a
 * lapsed hold runs at once (checkouts, reads, releases, a new hold on the departure, two
 * sweeps). Each hold must be expired once and its seats given back once.
 */
async function forwardPastTheHold(service: StartedService, tally: Tally, expect: Expect, outcome: DrillOutcome): Promise<void> {
  const { clock } = service
  clock.set('2026-06-01T08:00:00Z')
  const start = await departureOn(service.client(), '2026-06-02')
  const lapsing = []
  for (let i = 0; i < 6; i++) lapsing.push(await tally.hold(start, 1 + (i % 2)))
  const survivor = await tally.hold(start, 2)

  clock.set('2026-06-01T08:14:59Z')
  const justInTime = await tally.checkout(survivor.headers)
  expect(justInTime.status === 200, `checkout one second before the hold lapsed answered ${justInTime.status}`)

  clock.advance({ hours: 3, seconds: 1 })
  const now = clock.now()
  const [checkouts] = await Promise.all([
    Promise.all(lapsing.flatMap((h) => [tally.checkout(h.headers), tally.checkout(h.headers)])),
    Promise.all(lapsing.flatMap((h) => [tally.send('GET', '/booking', h.headers), tally.send('DELETE', '/booking', h.headers)])),
    tally.hold(start, 1),
    runHousekeeping(service.context, now),
    runHousekeeping(service.context, now),
  ])
  const wrongCheckouts = checkouts.filter((a) => !(a.status === 410 && a.body.code === 'hold_expired'))
  expect(wrongCheckouts.length === 0, `checkouts of lapsed holds answered ${wrongCheckouts.map((a) => a.status).join(', ')}, not 410 hold_expired`)

  const { db } = service.context.store
  const events = await db.selectFrom('booking_events').select(['booking_id', 'to_status']).where('booking_id', 'in', lapsing.map((h) => h.booking.id)).execute()
  const expiredTwice = lapsing.filter((h) => events.filter((e) => e.booking_id === h.booking.id && e.to_status === 'expired').length > 1).length
  const neverExpired = lapsing.filter((h) => !events.some((e) => e.booking_id === h.booking.id && e.to_status === 'expired')).length
  outcome.duplicated += expiredTwice
  expect(neverExpired === 0, `${neverExpired} lapsed holds were never recorded expired`)
  outcome.notes.push(`forward 3 h past the hold: checkout 1 s before the lapse ${justInTime.status}; after the jump ${lapsing.length} lapsed holds each met 2 checkouts, a read, a release, a competing hold and 2 sweeps at once: ${checkouts.length - wrongCheckouts.length} of ${checkouts.length} checkouts answered 410 hold_expired, each hold expired ${expiredTwice === 0 ? 'exactly once' : 'MORE THAN ONCE'}`)
}

/**
 * The clock steps back an hour after a hold. Its expiry instant must not move; the hold
 * then lives the hour longer in elapsed time, which the drill measures and reports.
 */
async function backwards(service: StartedService, tally: Tally, expect: Expect, outcome: DrillOutcome): Promise<void> {
  const { clock } = service
  clock.set('2026-06-03T08:00:00Z')
  const start = await departureOn(service.client(), '2026-06-05')
  const held = await tally.hold(start, 1)
  const watched = await tally.hold(start, 1)
  const createdAt = clock.now()
  const expiresAt = Temporal.Instant.from(held.booking.hold_expires_at)
  expect(minutesBetween(createdAt, expiresAt) === HOLD_MINUTES, `hold_expires_at is ${minutesBetween(createdAt, expiresAt)} min after creation, not ${HOLD_MINUTES}`)

  clock.advance({ minutes: 5 })
  clock.set(clock.now().subtract({ hours: 1 }).toString())
  let elapsed = 5
  const afterJump = await tally.send('GET', '/booking', held.headers)
  expect(afterJump.body.hold_expires_at === held.booking.hold_expires_at, `after the backward jump hold_expires_at moved to ${afterJump.body.hold_expires_at}`)
  clock.advance({ minutes: 15 })
  elapsed += 15
  const checkout = await tally.checkout(held.headers)

  let status = 'held'
  while (status === 'held' && elapsed < 180) {
    clock.advance({ minutes: 5 })
    elapsed += 5
    status = (await tally.send('GET', '/booking', watched.headers)).body.status
  }
  expect(status === 'expired', `a hold watched for ${elapsed} elapsed minutes after a backward jump is ${status}`)
  outcome.notes.push(`backward 1 h, 5 min after a hold: hold_expires_at ${afterJump.body.hold_expires_at === held.booking.hold_expires_at ? 'unchanged' : 'CHANGED'} (creation + ${HOLD_MINUTES} min by the clock); checkout 20 elapsed minutes after the hold answered ${checkout.status}`
    + `; another hold lapsed only after about ${elapsed} elapsed minutes (in 5-minute steps). Finding: expiry follows the clock, so a clock stepped back by X keeps holds X longer; the seats stay within capacity, but hold_minutes is not a bound on elapsed time`)
}

/**
 * A hold made just before Lisbon's clocks change and checked out just before and just
 * after it lapses: its life is hold_minutes of real time, whatever the local wall clock does.
 */
async function acrossDaylightSaving(service: StartedService, tally: Tally, expect: Expect, outcome: DrillOutcome,
  change: { name: string, date: string, holdAt: string, expiresAt: string }): Promise<void> {
  const { clock } = service
  clock.set(change.holdAt)
  const start = await departureOn(service.client(), change.date)
  const early = await tally.hold(start, 1)
  const late = await tally.hold(start, 1)
  expect(early.booking.hold_expires_at === change.expiresAt, `${change.name}: hold_expires_at ${early.booking.hold_expires_at}, expected ${change.expiresAt}`)
  clock.advance({ minutes: HOLD_MINUTES - 1 })
  const inTime = await tally.checkout(early.headers)
  clock.advance({ minutes: 1 })
  const tooLate = await tally.checkout(late.headers)
  expect(inTime.status === 200, `${change.name}: checkout ${HOLD_MINUTES - 1} min after the hold answered ${inTime.status}`)
  expect(tooLate.status === 410, `${change.name}: checkout ${HOLD_MINUTES} min after the hold answered ${tooLate.status}, not 410`)
  outcome.notes.push(`${change.name} (${change.date}, hold at ${Temporal.Instant.from(change.holdAt).toZonedDateTimeISO('Europe/Lisbon').toPlainTime()} local): hold_expires_at ${early.booking.hold_expires_at}; checkout after ${HOLD_MINUTES - 1} min ${inTime.status}, after ${HOLD_MINUTES} min ${tooLate.status}`)
}
