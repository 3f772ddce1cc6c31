import type { ApiClient } from '../test/helpers/client.ts'

/** How one POST /booking ended, from the client's side. */
export type HoldOutcome = 'not sent' | 'acknowledged' | 'refused' | 'unavailable' | 'connection lost' | 'unexpected'

/** One hold request with its own session and Idempotency-Key, so it can be retried exactly. */
export interface HoldAttempt {
  key: string
  session: string
  headers: Record<string, string>
  body: { tour_id: string, start: string, party: number }
  outcome: HoldOutcome
  /** Set once the service acknowledged the hold (200). */
  bookingId?: string
  /** Status and code of the last answer, for reporting unexpected ones. */
  answer?: string
  latencyMs?: number
}

export interface HoldTarget {
  tourId: string
  start: string
}

/** The bookable starts of a tour for a party of one over the next 14 days, earliest first. */
export async function bookableStarts(client: ApiClient, tourId: string): Promise<string[]> {
  const { status, body, text } = await client.get(`/availability?tour=${tourId}&days=14&party=1`)
  if (status !== 200) throw new Error(`availability answered ${status}: ${text}`)
  return (body.slots as { start: string, bookable: boolean }[]).filter((s) => s.bookable).map((s) => s.start)
}

/** Makes `count` sessions (few at a time, the machine is shared) and one hold attempt for each. */
export async function prepareAttempts(client: ApiClient, count: number, target: HoldTarget, label: string,
  partyOf: (i: number) => number = () => 1): Promise<HoldAttempt[]> {
  const attempts: HoldAttempt[] = []
  for (let i = 0; i < count; i += 4) {
    const sessions = await Promise.all(Array.from({ length: Math.min(4, count - i) }, () => client.session()))
    sessions.forEach((s, j) => attempts.push({
      key: `${label}-${i + j}`,
      session: s.session,
      headers: { ...s.headers, 'idempotency-key': `${label}-${i + j}` },
      body: { tour_id: target.tourId, start: target.start, party: partyOf(i + j) },
      outcome: 'not sent',
    }))
  }
  return attempts
}

/** Sends the attempt's hold once and records how it ended. */
export async function sendHold(client: ApiClient, attempt: HoldAttempt): Promise<void> {
  const began = performance.now()
  try {
    const res = await client.post('/booking', attempt.body, { headers: attempt.headers })
    attempt.latencyMs = performance.now() - began
    attempt.answer = `${res.status} ${typeof res.body === 'object' ? res.body.code ?? '' : ''}`.trim()
    if (res.status === 200) {
      attempt.outcome = 'acknowledged'
      attempt.bookingId = res.body.id
    } else if (res.status === 409 && res.body.code === 'insufficient_capacity') {
      attempt.outcome = 'refused'
    } else if (res.status === 503 && res.body.code === 'unavailable') {
      attempt.outcome = 'unavailable'
    } else {
      attempt.outcome = 'unexpected'
    }
  } catch (err) {
    attempt.latencyMs = performance.now() - began
    attempt.outcome = 'connection lost'
    attempt.answer = (err as Error).message
  }
}

export interface RetryTally {
  sent: number
  /** Acknowledged before and replayed with the same booking. */
  replayed: number
  /** Not acknowledged before, acknowledged now. */
  newlyAcknowledged: number
  /** Of those, replays: the first request had committed but its answer never reached the client. */
  committedUnanswered: number
  /** A retry of an acknowledged key that answered with another booking, or not at all. */
  duplicated: number
  /** Answers outside 200 / 409 insufficient_capacity, as "key: answer". */
  unexpected: string[]
}

/**
 * Retries every attempt with its own key, as a client that never saw an answer would. An
 * acknowledged one must be replayed (same booking, `Idempotent-Replayed: true`); any other
 * must now be held or refused for capacity.
 */
export async function retryAll(client: ApiClient, attempts: HoldAttempt[]): Promise<RetryTally> {
  const tally: RetryTally = { sent: 0, replayed: 0, newlyAcknowledged: 0, committedUnanswered: 0, duplicated: 0, unexpected: [] }
  for (const attempt of attempts) {
    const before = attempt.bookingId
    const res = await client.post('/booking', attempt.body, { headers: attempt.headers })
    tally.sent++
    if (before !== undefined) {
      if (res.status === 200 && res.body.id === before && res.headers.get('idempotent-replayed') === 'true') tally.replayed++
      else tally.duplicated++
    } else if (res.status === 200) {
      attempt.outcome = 'acknowledged'
      attempt.bookingId = res.body.id
      tally.newlyAcknowledged++
      if (res.headers.get('idempotent-replayed') === 'true') tally.committedUnanswered++
    } else if (!(res.status === 409 && res.body.code === 'insufficient_capacity')) {
      tally.unexpected.push(`${attempt.key}: ${res.status} ${res.body?.code ?? res.text.slice(0, 80)}`)
    }
  }
  return tally
}

export function countOutcomes(attempts: HoldAttempt[]): Record<HoldOutcome, number> {
  const counts: Record<HoldOutcome, number> = { 'not sent': 0, acknowledged: 0, refused: 0, unavailable: 0, 'connection lost': 0, unexpected: 0 }
  for (const a of attempts) counts[a.outcome]++
  return counts
}
