import { Temporal } from 'temporal-polyfill'
import type { Clock } from '../../src/domain/clock.ts'

/** A clock the test sets and moves; nothing in a test depends on today's date. */
export class ManualClock implements Clock {
  private current: Temporal.Instant

  constructor(start: string) {
    this.current = Temporal.Instant.from(start)
  }

  now(): Temporal.Instant {
    return this.current
  }

  set(iso: string): void {
    this.current = Temporal.Instant.from(iso)
  }

  advance(duration: Temporal.DurationLike): void {
    this.current = this.current.add(duration)
  }
}
