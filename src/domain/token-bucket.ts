export interface BucketPolicy {
  /** Requests allowed in a burst. */
  burst: number
  /** Tokens added back per minute. */
  per_minute: number
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

/** Takes one token from a bucket at time `nowMs`; pure, so any store (memory, Redis script) can keep the state. */
export function takeToken(policy: BucketPolicy, previous: BucketState | undefined, nowMs: number): BucketDecision {
  const perMs = policy.per_minute / 60_000
  const refilled = previous === undefined ? policy.burst
    : Math.min(policy.burst, previous.tokens + Math.max(0, nowMs - previous.at) * perMs)
  const allowed = refilled >= 1
  const tokens = allowed ? refilled - 1 : refilled
  return {
    allowed,
    state: { tokens, at: nowMs },
    remaining: Math.floor(tokens),
    retryAfter: allowed ? 0 : Math.ceil((1 - tokens) / perMs / 1000),
    resetAfter: Math.ceil((policy.burst - tokens) / perMs / 1000),
  }
}
