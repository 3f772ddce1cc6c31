import { toStoredInstant } from '../../src/domain/instant-format.ts'
import { Temporal } from 'temporal-polyfill'
import type { ApiClient } from './client.ts'
import { RACE_TOUR, type RaceTarget } from './race-target.ts'

export type RaceRoute = 'POST /booking' | 'DELETE /booking' | 'POST /checkout'

/** One session of a race: its id and the headers a non-browser client sends with it. */
export interface RaceSession {
  id: string
  headers: Record<string, string>
}

/** One request of a race and how it was answered. */
export interface RaceAnswer {
  /** Which request, for failure messages, e.g. "b1#3 s0@n1 POST /booking d1 party 2 RACE1-0003 key:k7". */
  label: string
  route: RaceRoute
  session: string
  /** Idempotency-Key sent, if any: answers with one key must agree. */
  key?: string
  /** What POST /booking asked for: the stored start instant and the party. */
  asked?: { start: string, party: number }
  /** 0 when no HTTP answer came, or it did not match openapi.json (see `error`). */
  status: number
  code?: string
  booking?: { id: string, status: string }
  error?: string
}

/** What one run did: the requests and their answers, and what it touched, for the invariant checks. */
export interface RaceRun {
  name: string
  sessions: RaceSession[]
  /** Stored start instants of the departures the run booked. */
  starts: string[]
  promos: { code: string, maxUses: number }[]
  answers: RaceAnswer[]
  /** Broken expectations of a scripted scenario, beyond the general invariants. */
  expectations: string[]
}

export const CONTACT = { name: 'Race Tester', email: 'race@example.pt' }
/** Filling a decoy field: the hold or checkout is answered like any other but quarantined. */
export const HOLD_DECOY = { website: 'http://spam.example' }
export const CHECKOUT_DECOY = { fax: '123' }

export const storedStart = (start: string) => toStoredInstant(Temporal.Instant.from(start))

let keySerial = 0
/** An Idempotency-Key no other request of this process used (visible ASCII, no spaces). */
export const freshKey = () => `race-${process.pid}-${++keySerial}`

export interface RaceRequest {
  label: string
  route: RaceRoute
  session: RaceSession
  client: ApiClient
  body?: Record<string, unknown>
  key?: string
}

/** Sends one request and records its answer; never throws, so one bad answer cannot hide the others of its batch. */
export async function send(request: RaceRequest): Promise<RaceAnswer> {
  const { label, route, session, client, body, key } = request
  const answer: RaceAnswer = { label, route, session: session.id, key, status: 0 }
  if (route === 'POST /booking') answer.asked = { start: storedStart(String(body!.start)), party: Number(body!.party) }
  const headers = { ...session.headers, 'idempotency-key': key }
  try {
    const res = route === 'DELETE /booking'
      ? await client.delete('/booking', { headers })
      : await client.post(route === 'POST /booking' ? '/booking' : '/checkout', body, { headers })
    answer.status = res.status
    if (res.status === 200) answer.booking = { id: res.body.id, status: res.body.status }
    else if (typeof res.body === 'object' && res.body !== null) answer.code = res.body.code
    else answer.error = res.text.slice(0, 200)
  } catch (err) {
    // A refused connection, or an answer that openapi.json does not document.
    answer.error = (err as Error).message.split('\n').slice(0, 3).join(' ')
  }
  return answer
}

/** Every request at once: they are all on the wire before the first answer is read. */
export function sendAll(requests: RaceRequest[]): Promise<RaceAnswer[]> {
  return Promise.all(requests.map(send))
}

/** `count` new sessions, made a few at a time on the target's nodes in turn. */
export async function newSessions(target: RaceTarget, count: number): Promise<RaceSession[]> {
  const sessions: RaceSession[] = []
  for (let i = 0; i < count; i += 8) {
    const made = await Promise.all(Array.from({ length: Math.min(8, count - i) }, (_, j) => target.clients[(i + j) % target.clients.length].session()))
    sessions.push(...made.map((s) => ({ id: s.session, headers: s.headers })))
  }
  return sessions
}

/** The drill tour's units a hold may name (test/helpers/catalog-file.ts addDrillUnits): unit id to quantity. */
export type UnitCounts = Partial<Record<'adult' | 'child' | 'infant', number>>

/** A hold of `party` people: that many adults, the drill tour's first unit, unless `units` says who they are. */
export function holdBody(start: string, party: number, promo?: string, decoy = false, units?: UnitCounts): Record<string, unknown> {
  return { tour_id: RACE_TOUR, start, party, ...(units ? { units } : {}), ...(promo ? { promo_code: promo } : {}), ...(decoy ? HOLD_DECOY : {}) }
}

/** "1 adult 1 infant", for labels. */
export const describeCounts = (units: UnitCounts) => Object.entries(units).map(([id, n]) => `${n} ${id}`).join(' ')

export function checkoutBody(decoy = false): Record<string, unknown> {
  return { ...CONTACT, ...(decoy ? CHECKOUT_DECOY : {}) }
}

/** One line per answer, for a failure message: what was sent and what came back. */
export function describeAnswers(answers: RaceAnswer[]): string {
  return answers.map((a) => {
    const outcome = a.status === 200 ? `200 ${a.booking!.status} …${a.booking!.id.slice(-12)}`
      : a.status === 0 ? `no valid answer: ${a.error}`
      : `${a.status} ${a.code ?? a.error ?? ''}`
    return `  ${a.label} (session ${a.session}) → ${outcome}`
  }).join('\n')
}
