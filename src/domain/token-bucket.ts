export interface BucketPolicy {
  /** Requests allowed in a burst. */
  burst: number
  /** Tokens added back per minute. */
  per_minute: number
}

export type RateClass = 'read' | 'booking' | 'forms' | 'octo'

export type RateLimitPolicies = Record<RateClass, BucketPolicy>

/**
 * Defaults per client address and per session (octo: per reseller key, 20 requests a second
 * with a burst of 100, docs/resellers.md); forms are strictest. Overridable per instance.
 */
export const DEFAULT_RATE_LIMITS: RateLimitPolicies = {
  read: { burst: 120, per_minute: 600 },
  booking: { burst: 20, per_minute: 60 },
  forms: { burst: 5, per_minute: 6 },
  octo: { burst: 100, per_minute: 1200 },
}

export interface BucketState {
  tokens: number
  at: number
}

export interface BucketDecision {
  allowed: boolean
  state: BucketState
  remaining: number
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfter: number
  /** Seconds until the bucket is full again. */
  resetAfter: number
}

/** Tokens in the bucket at `nowMs`, before the request takes one. */
export function refill(policy: BucketPolicy, previous: BucketState | undefined, nowMs: number): number {
  if (previous === undefined) return policy.burst
  return Math.min(policy.burst, previous.tokens + Math.max(0, nowMs - previous.at) * (policy.per_minute / 60_000))
}

/**
 * The outcome for one bucket that held `level` tokens. A request checked against several
 * buckets spends from all of them or from none, so `allowed` can be false for a bucket that
 * still had tokens.
 */
export function decide(policy: BucketPolicy, level: number, allowed: boolean, nowMs: number): BucketDecision {
  const perMs = policy.per_minute / 60_000
  const tokens = allowed ? level - 1 : level
  let retryAfter = 0
  if (!allowed) {
    // The first whole second at which refill() finds a token, as refill() computes it: the
    // division can round either way (0.1666… + 10 s at 5 a minute is 0.9999999999999999).
    const refilledAfter = (seconds: number) => tokens + seconds * 1000 * perMs
    retryAfter = Math.ceil(Math.max(0, 1 - tokens) / perMs / 1000)
    if (retryAfter > 1 && refilledAfter(retryAfter - 1) >= 1) retryAfter--
    else if (refilledAfter(retryAfter) < 1) retryAfter++
  }
  return {
    allowed,
    state: { tokens, at: nowMs },
    remaining: Math.floor(tokens),
    retryAfter,
    resetAfter: Math.ceil((policy.burst - tokens) / perMs / 1000),
  }
}

/** Takes one token from a bucket at time `nowMs`; pure, so any store (memory, Redis script) can keep the state. */
export function takeToken(policy: BucketPolicy, previous: BucketState | undefined, nowMs: number): BucketDecision {
  const level = refill(policy, previous, nowMs)
  return decide(policy, level, level >= 1, nowMs)
}
