import type { Client, Request } from 'autocannon'
import type { Temporal } from 'temporal-polyfill'
import { HOLD_TOUR, MEASURED_TOUR, SEARCH_WORD } from './catalog.ts'
import type { LoadSpec } from './load.ts'

/** What one scenario sends: a URL and, for the write cycles, the requests each connection repeats. */
export type Traffic = Pick<LoadSpec, 'url' | 'requests' | 'setupClient'>

export interface Scenario {
  name: string
  /** How the report names it. */
  request: string
  kind: 'read' | 'write'
  /** Prepares the traffic for `connections` connections against one instance's base URL. */
  traffic(base: string, connections: number): Promise<Traffic>
}

interface Session {
  session: string
  csrf_token: string
}

/** Departures of the hold tour read ahead of the run: holds are spread over this many days from tomorrow. */
const HOLD_SPREAD_DAYS = 56
const AVAILABILITY_PAGE_DAYS = 14

/** A JSON answer of the service, or an error naming the request and what it answered. */
export async function json(url: string, init?: RequestInit): Promise<any> {
  const answer = await fetch(url, init)
  const body = await answer.json()
  if (!answer.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${answer.status}: ${JSON.stringify(body)}`)
  return body
}

/** One session per connection, made before the run so that no two connections share a hold. */
async function openSessions(base: string, count: number): Promise<Session[]> {
  const sessions: Session[] = []
  for (let i = 0; i < count; i++) sessions.push(await json(`${base}/session`, { method: 'POST' }))
  return sessions
}

/** Every start of the hold tour from tomorrow on, for HOLD_SPREAD_DAYS days, read through the API. */
async function holdStarts(base: string, tomorrow: Temporal.PlainDate): Promise<string[]> {
  const starts: string[] = []
  for (let day = 0; day < HOLD_SPREAD_DAYS; day += AVAILABILITY_PAGE_DAYS) {
    const date = tomorrow.add({ days: day })
    const page = await json(`${base}/availability?tour=${HOLD_TOUR}&date=${date}&days=${AVAILABILITY_PAGE_DAYS}`)
    starts.push(...page.slots.filter((s: { status: string }) => s.status !== 'closed' && s.status !== 'sold_out').map((s: { start: string }) => s.start))
  }
  if (starts.length === 0) throw new Error(`${HOLD_TOUR} has no open departure to hold`)
  return starts
}

/**
 * A cycle that each connection repeats with its own session: a hold of one seat on a
 * departure picked at random (so holds spread over many departure rows), then `then`.
 */
function holdCycle(then: (path: string, session: Session) => Request) {
  return async (base: string, connections: number, tomorrow: Temporal.PlainDate): Promise<Traffic> => {
    // Two sessions per connection: the warm-up's connections take the first half and the measured
    // run's the second. When the warm-up stops, a DELETE of its connection can still be on its way
    // to the service; with one set of sessions it released the measured run's new hold of the same
    // session, whose own DELETE then answered 404 (a quick bench on PostgreSQL, 2026-11-27).
    const [sessions, starts] = await Promise.all([openSessions(base, 2 * connections), holdStarts(base, tomorrow)])
    const path = new URL(base).pathname
    let assigned = 0
    const requestsFor = (session: Session): Request[] => [
      {
        method: 'POST',
        path: `${path}/booking`,
        headers: { 'content-type': 'application/json', 'x-session': session.session, 'x-csrf-token': session.csrf_token },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ tour_id: HOLD_TOUR, start: starts[Math.floor(Math.random() * starts.length)], party: 1 }),
        }),
      },
      then(path, session),
    ]
    return {
      url: base,
      // Connections are set up again for the warm-up and the measured run, in that order.
      setupClient: (client: Client) => client.setRequests(requestsFor(sessions[assigned++ % sessions.length])),
    }
  }
}

const holdThenRelease = holdCycle((path, session) => ({
  method: 'DELETE',
  path: `${path}/booking`,
  headers: { 'x-session': session.session, 'x-csrf-token': session.csrf_token },
}))

const holdThenCheckout = holdCycle((path, session) => ({
  method: 'POST',
  path: `${path}/checkout`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ session: session.session, name: 'Bench Guest', email: 'bench@example.com', phone: '+351912345678' }),
}))

function read(name: string, query: string): Scenario {
  return { name, request: `GET ${query}`, kind: 'read', traffic: async (base) => ({ url: `${base}${query}` }) }
}

/** The endpoints `npm run bench` measures, in the order it measures them. */
export function scenarios(tomorrow: Temporal.PlainDate): Scenario[] {
  return [
    read('tours', '/tours'),
    read('search', `/tours?q=${SEARCH_WORD}`),
    read('availability-7', `/availability?tour=${MEASURED_TOUR}&date=${tomorrow}&days=7&party=2`),
    read('availability-14', `/availability?tour=${MEASURED_TOUR}&date=${tomorrow}&days=14&party=2`),
    { name: 'hold-release', request: 'POST /booking + DELETE /booking', kind: 'write', traffic: (base, n) => holdThenRelease(base, n, tomorrow) },
    { name: 'hold-checkout', request: 'POST /booking + POST /checkout', kind: 'write', traffic: (base, n) => holdThenCheckout(base, n, tomorrow) },
  ]
}
