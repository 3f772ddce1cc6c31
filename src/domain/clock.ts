import { Temporal } from 'temporal-polyfill'

/** The only source of "now" for rules and services, so tests can set the time. */
export interface Clock {
  now(): Temporal.Instant
}

export const systemClock: Clock = { now: () => Temporal.Now.instant() }
