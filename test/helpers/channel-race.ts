/**
 * Issue 28's race: guests, a reseller through OCTo and staff through the operator API want the
 * same last seats of one departure at once, over a target's nodes in turn (race-target.ts).
 * Each request is recorded with its answer; `checkChannelRace` then reads the database and
 * holds every answer to the final state, and each refusal to its own surface's format.
 */
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { SEATED } from '../../src/schemas/booking-status.ts'
import { checkAgainstOcto } from '../octo/octo-client.ts'
import { RACE_CAPACITY, RACE_TOUR, type RaceTarget } from './race-target.ts'
import { newSessions, storedStart, type RaceSession } from './race-traffic.ts'

export type Channel = 'guest' | 'octo' | 'staff'
type Action = 'take' | 'confirm' | 'cancel' | 'checkout'

/** One request of the race and what came back. */
export interface ChannelAnswer {
  label: string
  channel: Channel
  action: Action
  /** 0 the setup, 1 the first wave, 2 the second. */
  wave: number
  /** A take: the seats asked for. Otherwise the booking acted on. */
  seats: number
  bookingId?: string
  status: number
  contentType: string
  /** The booking a 2xx answered with, and the status it gave (OCTo's words on OCTo). */
  booking?: { id: string, status: string }
  /** A refusal's code: problem+json `code`, OCTo `error`. */
  code?: string
  /** No answer, or one that is not JSON, or an OCTo answer that OCTo's description refuses. */
  error?: string
}

interface Request {
  label: string
  channel: Channel
  action: Action
  seats: number
  bookingId?: string
  url: string
  headers: Record<string, string>
  body?: unknown
  /** OCTo's path for the answer's schema, e.g. /bookings/{uuid}/confirm. */
  octoPath?: string
  /** A guest's hold: the session that checks it out. */
  session?: RaceSession
}

/** Sends one request and records its answer; never throws, so one bad answer cannot hide the others. */
async function send(request: Request, wave: number): Promise<ChannelAnswer> {
  const { label, channel, action, seats, bookingId } = request
  const answer: ChannelAnswer = { label, channel, action, wave, seats, bookingId, status: 0, contentType: '' }
  try {
    const res = await fetch(request.url, {
      method: 'POST', headers: { ...request.headers, ...request.body === undefined ? {} : { 'content-type': 'application/json' } },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    })
    answer.status = res.status
    answer.contentType = res.headers.get('content-type') ?? ''
    const body = JSON.parse(await res.text())
    if (request.octoPath) await checkAgainstOcto('POST', request.octoPath, res.status, body)
    if (res.status < 300) answer.booking = { id: body.id, status: body.status }
    else answer.code = channel === 'octo' ? body.error : body.code
  } catch (err) {
    answer.error = (err as Error).message.split('\n').slice(0, 3).join(' ')
  }
  return answer
}

/** Who races, and where. */
export interface ChannelRace {
  target: RaceTarget
  /** The departure raced for, as the guest availability writes its start. */
  start: string
  resellerKey: string
  staffKey: string
}

const nodeOf = (race: ChannelRace, i: number) => race.target.clients[i % race.target.clients.length]
const at = (race: ChannelRace, i: number) => `@n${i % race.target.clients.length}`

/** A guest's hold of one seat: every other one an adult with an infant on a lap (two people, one seat). */
function guestHold(race: ChannelRace, session: RaceSession, i: number): Request {
  const client = nodeOf(race, i)
  const withInfant = i % 2 === 1
  return {
    label: `guest g${i}${at(race, i)} POST /booking${withInfant ? ' adult+infant' : ''}`, channel: 'guest', action: 'take', seats: 1,
    url: `${client.base}/booking`, headers: session.headers, session,
    body: { tour_id: RACE_TOUR, start: race.start, party: withInfant ? 2 : 1, ...withInfant ? { units: { adult: 1, infant: 1 } } : {} },
  }
}

function guestCheckout(race: ChannelRace, session: RaceSession, bookingId: string, i: number): Request {
  return {
    label: `guest g${i}${at(race, i)} POST /checkout`, channel: 'guest', action: 'checkout', seats: 1, bookingId,
    url: `${nodeOf(race, i).base}/checkout`, headers: session.headers, body: { name: 'Race Guest', email: 'guest@example.pt' },
  }
}

const octoHeaders = (race: ChannelRace) => ({ authorization: `Bearer ${race.resellerKey}`, 'octo-capabilities': 'octo/pricing' })
const octoBase = (race: ChannelRace, i: number) => `${nodeOf(race, i).origin}/octo/${nodeOf(race, i).prefix}`

/** A reseller's reserve of one seat: every other one an adult with an infant. */
function octoReserve(race: ChannelRace, i: number): Request {
  const withInfant = i % 2 === 1
  return {
    label: `octo r${i}${at(race, i)} POST /bookings${withInfant ? ' ADULT+INFANT' : ''}`, channel: 'octo', action: 'take', seats: 1,
    url: `${octoBase(race, i)}/bookings`, headers: octoHeaders(race), octoPath: '/bookings/',
    body: { uuid: randomUUID(), productId: RACE_TOUR, optionId: 'DEFAULT', availabilityId: race.start, expirationMinutes: 60,
      unitItems: withInfant ? [{ unitId: 'adult' }, { unitId: 'infant' }] : [{ unitId: 'adult' }] },
  }
}

function octoOnBooking(race: ChannelRace, uuid: string, bookingId: string, action: 'confirm' | 'cancel', i: number): Request {
  return {
    label: `octo ${uuid.slice(0, 8)}${at(race, i)} POST /bookings/{uuid}/${action}`, channel: 'octo', action, seats: 1, bookingId,
    url: `${octoBase(race, i)}/bookings/${uuid}/${action}`, headers: octoHeaders(race), octoPath: `/bookings/{uuid}/${action}`,
    body: action === 'confirm' ? { contact: { fullName: 'Race Reseller', emailAddress: 'ota@example.com' } } : {},
  }
}

function staffBooking(race: ChannelRace, i: number): Request {
  const client = nodeOf(race, i)
  return {
    label: `staff s${i}${at(race, i)} POST /bookings`, channel: 'staff', action: 'take', seats: 1,
    url: `${client.origin}/admin/api/${client.prefix}/bookings`, headers: { authorization: `Bearer ${race.staffKey}` },
    body: { tour_id: RACE_TOUR, start: race.start, party: 1, contact: { name: `Caller ${i}`, phone: '+351912345678' } },
  }
}

function staffCancel(race: ChannelRace, bookingId: string, code: string, i: number): Request {
  const client = nodeOf(race, i)
  return {
    label: `staff ${code}${at(race, i)} POST /bookings/{code}/cancel`, channel: 'staff', action: 'cancel', seats: 1, bookingId,
    url: `${client.origin}/admin/api/${client.prefix}/bookings/${code}/cancel`, headers: { authorization: `Bearer ${race.staffKey}` }, body: { reason: 'race' },
  }
}

export interface ChannelRaceRun {
  answers: ChannelAnswer[]
  /** Seats taken before the race by a staff booking, so that the race is for the last ones. */
  takenBefore: number
  /** Seats the race freed by cancelling winners while new contenders raced for them. */
  freed: number
  /** What this race promises beyond the general checks, broken. */
  expectations: string[]
}

/**
 * The race, in two waves. First `contenders` of each channel at once (one seat each) for the
 * departure's last seats, channel `lead` (0 guests, 1 OCTo, 2 staff) first of each round of
 * three: exactly as many win as there are seats left. Then, at once: the
 * reseller confirms each of its holds, guests check theirs out, one winning staff booking and
 * one reseller hold are cancelled, and a new contender of each channel asks for a seat.
 */
export async function channelRace(race: ChannelRace, contenders: number, lead: number): Promise<ChannelRaceRun> {
  const expectations: string[] = []
  const before = staffBooking(race, 0)
  const setup = await send({ ...before, label: 'setup: a staff booking of 2', seats: 2, body: { ...before.body as object, party: 2 } }, 0)
  if (setup.status !== 201) throw new Error(`the setup booking was refused: ${setup.status} ${setup.code ?? setup.error}`)
  const takenBefore = 2
  const left = RACE_CAPACITY - takenBefore
  const sessions = await newSessions(race.target, contenders + 1)
  // Interleaved, the channel `lead` first: the requests leave in this order, so each channel in turn gets the head start.
  const channels = [(i: number) => guestHold(race, sessions[i], i), (i: number) => octoReserve(race, i), (i: number) => staffBooking(race, i)]
  const order = Array.from({ length: contenders }, (_, i) => channels.map((_, c) => channels[(c + lead) % channels.length](i))).flat()
  const first = await Promise.all(order.map((request) => send(request, 1)))
  const won = first.filter((a) => a.status >= 200 && a.status < 300)
  if (won.length !== left) expectations.push(`first wave: expected ${left} of ${first.length} takes to win the ${left} seats left, ${won.length} won`)

  const second: Request[] = []
  const guestsWon = first.flatMap((a, i) => a.channel === 'guest' && a.booking ? [{ a, session: order[i].session! }] : [])
  guestsWon.forEach(({ a, session }, i) => second.push(guestCheckout(race, session, a.booking!.id, i)))
  const octoWon = first.filter((a) => a.channel === 'octo' && a.booking)
  let freed = 0
  for (const [i, a] of octoWon.entries()) {
    const uuid = await uuidOf(race, a.booking!.id)
    // The first reseller hold is cancelled, the others confirmed.
    second.push(octoOnBooking(race, uuid, a.booking!.id, i === 0 ? 'cancel' : 'confirm', i))
    if (i === 0) freed++
  }
  const staffWon = first.filter((a) => a.channel === 'staff' && a.booking)
  if (staffWon.length > 0) {
    second.push(staffCancel(race, staffWon[0].booking!.id, await codeOf(race, staffWon[0].booking!.id), 1))
    freed++
  }
  second.push(guestHold(race, sessions[contenders], contenders), octoReserve(race, contenders), staffBooking(race, contenders))
  const answers = [setup, ...first, ...await Promise.all(second.map((request) => send(request, 2)))]
  return { answers, takenBefore, freed, expectations }
}

async function uuidOf(race: ChannelRace, bookingId: string): Promise<string> {
  const { rows } = await sql<{ reseller_uuid: string }>`SELECT reseller_uuid FROM bookings WHERE id = ${bookingId}`.execute(race.target.db)
  return rows[0].reseller_uuid
}

async function codeOf(race: ChannelRace, bookingId: string): Promise<string> {
  const { rows } = await sql<{ code: string }>`SELECT code FROM bookings WHERE id = ${bookingId}`.execute(race.target.db)
  return rows[0].code
}

/** What a 2xx of each action may answer, in the surface's words. */
const ANSWERED: Record<Channel, Partial<Record<Action, string[]>>> = {
  guest: { take: ['held'], checkout: ['confirmed', 'requested'] },
  octo: { take: ['ON_HOLD'], confirm: ['CONFIRMED', 'PENDING'], cancel: ['CANCELLED'] },
  staff: { take: ['confirmed', 'requested'], cancel: ['cancelled'] },
}
/** What the booking is in the database after that answer (nothing else touched it). */
const STORED: Record<string, string[]> = {
  held: ['held'], ON_HOLD: ['held'], confirmed: ['confirmed'], CONFIRMED: ['confirmed'], requested: ['requested'], PENDING: ['requested'],
  CANCELLED: ['released', 'cancelled'], cancelled: ['cancelled'],
}

/** Every broken promise of the run: an empty list when all hold. */
export async function checkChannelRace(race: ChannelRace, run: ChannelRaceRun): Promise<string[]> {
  const broken = [...run.expectations]
  const start = storedStart(race.start)
  const { rows } = await sql<{ id: string, status: string, seats: number | string, start_at: string, quarantined: number | string }>`
    SELECT id, status, seats, start_at, quarantined FROM bookings WHERE tour_id = ${RACE_TOUR} AND start_at = ${start}`.execute(race.target.db)
  const byId = new Map(rows.map((r) => [r.id, r]))
  // The last answer about each booking says what it must be now.
  const last = new Map<string, ChannelAnswer>()
  for (const a of run.answers) {
    const label = `${a.label} → ${a.status} ${a.booking?.status ?? a.code ?? a.error ?? ''}`
    if (a.error !== undefined) { broken.push(`${label}: no valid answer`); continue }
    if (a.status >= 500) { broken.push(`${label}: a 5xx`); continue }
    if (a.status >= 300) {
      const ownFormat = a.channel === 'octo'
        ? a.status === 400 && a.code === 'UNPROCESSABLE_ENTITY' && a.contentType.startsWith('application/json')
        : a.status === 409 && a.code === 'insufficient_capacity' && a.contentType.startsWith('application/problem+json')
      if (a.action !== 'take' || !ownFormat) broken.push(`${label} (${a.contentType}): not the surface's refusal of a full departure`)
      continue
    }
    if (!ANSWERED[a.channel][a.action]?.includes(a.booking!.status)) broken.push(`${label}: not an answer ${a.channel} ${a.action} may give`)
    const id = a.bookingId ?? a.booking!.id
    if (a.booking!.id !== id) broken.push(`${label}: answered booking ${a.booking!.id}, asked about ${id}`)
    const row = byId.get(id)
    if (!row) broken.push(`${label}: booking ${id} is not on the departure`)
    else if (Number(row.seats) !== a.seats) broken.push(`${label}: booking ${id} holds ${row.seats} seats, ${a.seats} were asked for`)
    last.set(id, a)
  }
  for (const [id, a] of last) {
    const row = byId.get(id)
    if (row && !STORED[a.booking!.status]?.includes(row.status)) broken.push(`${a.label} answered ${a.booking!.status}, booking ${id} is now ${row.status}`)
  }
  const live = rows.filter((r) => (SEATED as readonly string[]).includes(r.status) && Number(r.quarantined) === 0).reduce((sum, r) => sum + Number(r.seats), 0)
  const { rows: [departure] } = await sql<{ seats_taken: number | string, capacity: number | string }>`
    SELECT seats_taken, capacity FROM departures WHERE tour_id = ${RACE_TOUR} AND start_at = ${start}`.execute(race.target.db)
  if (Number(departure.seats_taken) !== live) broken.push(`seats_taken is ${departure.seats_taken}, the live bookings hold ${live}`)
  if (Math.max(live, Number(departure.seats_taken)) > Number(departure.capacity)) broken.push(`over capacity: ${live} seats live on a departure of ${departure.capacity}`)
  const secondWaveWins = run.answers.filter((a) => a.wave === 2 && a.action === 'take' && a.status >= 200 && a.status < 300).length
  if (secondWaveWins > run.freed) broken.push(`second wave: ${secondWaveWins} new takes won, only ${run.freed} seats were freed`)
  return broken
}

export function describeChannelRace(run: ChannelRaceRun, broken: string[]): string {
  return `${broken.length} broken:\n${broken.map((b) => `  - ${b}`).join('\n')}\nrequests:\n`
    + run.answers.map((a) => `  ${a.label} → ${a.status} ${a.booking ? `${a.booking.status} ${a.booking.id}` : a.code ?? a.error ?? ''}`).join('\n')
}
