const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** docs/events-and-webhooks.md, "Webhooks": a failed delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR, 20 * HOUR, 24 * HOUR]

/** An endpoint whose every delivery has failed this long is disabled. */
export const DISABLE_AFTER_MS = 5 * DAY

/** "5 s", "30 min", "24 h", "5 days": a wait as people read it, in its largest whole unit (days from two on). */
export function waitInWords(ms: number): string {
  if (ms >= 2 * DAY && ms % DAY === 0) return `${ms / DAY} days`
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h`
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms / MINUTE} min`
  return `${Math.round(ms / SECOND)} s`
}

/**
 * What the back office tells a manager of the retries: how many, the waits, and how long they
 * take in all, in days to the nearest half ("about 3 days" for the default's 75½ hours).
 */
export function retryScheduleInWords(schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS): string {
  const waits = schedule.map(waitInWords)
  const list = waits.length > 1 ? `${waits.slice(0, -1).join(', ')} and ${waits.at(-1)}` : waits[0]
  const total = schedule.reduce((sum, ms) => sum + ms, 0)
  const span = total >= DAY ? `about ${Math.round((total / DAY) * 2) / 2} days` : `about ${waitInWords(Math.round(total / HOUR) * HOUR || total)}`
  return `retried ${schedule.length} ${schedule.length === 1 ? 'time' : 'times'}, after ${list}, over ${span}`
}
