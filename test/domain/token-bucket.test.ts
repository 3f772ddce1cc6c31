import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { decide, refill, takeToken, type BucketPolicy, type BucketState } from '../../src/domain/token-bucket.ts'

const FORMS: BucketPolicy = { burst: 5, per_minute: 6 }
const T0 = 1_780_000_000_000

/** Takes `n` tokens at `nowMs`, one after another; returns the decisions. */
function takeMany(policy: BucketPolicy, state: BucketState | undefined, nowMs: number, n: number) {
  const decisions = []
  for (let i = 0; i < n; i++) {
    const decision = takeToken(policy, state, nowMs)
    decisions.push(decision)
    state = decision.state
  }
  return decisions
}

describe('refill', () => {
  test('a bucket never seen is full', () => {
    assert.equal(refill(FORMS, undefined, T0), 5)
  })

  test('tokens come back at per_minute / 60 per second, in fractions', () => {
    const empty = { tokens: 0, at: T0 }
    assert.equal(refill(FORMS, empty, T0), 0)
    assert.equal(refill(FORMS, empty, T0 + 5_000), 0.5)
    assert.equal(refill(FORMS, empty, T0 + 10_000), 1)
    assert.equal(refill(FORMS, empty, T0 + 35_000), 3.5)
  })

  test('never above the burst, however long the bucket was idle', () => {
    assert.equal(refill(FORMS, { tokens: 4, at: T0 }, T0 + 3_600_000), 5)
    assert.equal(refill(FORMS, { tokens: 0, at: T0 }, T0 + 50_000), 5)
  })

  test('a clock that steps backwards adds nothing and takes nothing away', () => {
    assert.equal(refill(FORMS, { tokens: 2, at: T0 }, T0 - 60_000), 2)
  })
})

describe('takeToken', () => {
  test('a fresh bucket allows the request, leaving burst - 1, with one token to refill', () => {
    const d = takeToken(FORMS, undefined, T0)
    assert.deepEqual(d, { allowed: true, state: { tokens: 4, at: T0 }, remaining: 4, retryAfter: 0, resetAfter: 10 })
  })

  test('a burst of exactly `burst` requests is allowed at one instant, the next one is refused', () => {
    const decisions = takeMany(FORMS, undefined, T0, 6)
    assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, true, true, false])
    assert.deepEqual(decisions.map((d) => d.remaining), [4, 3, 2, 1, 0, 0])
    assert.deepEqual(decisions.map((d) => d.resetAfter), [10, 20, 30, 40, 50, 50])
  })

  test('a refused request spends nothing and says when one token will be back', () => {
    const empty = { tokens: 0, at: T0 }
    const refused = takeToken(FORMS, empty, T0)
    assert.equal(refused.allowed, false)
    assert.equal(refused.state.tokens, 0)
    assert.equal(refused.retryAfter, 10)
    // Refused again and again: still 10 s, it does not push the wait further out.
    assert.equal(takeToken(FORMS, refused.state, T0).retryAfter, 10)
  })

  test('Retry-After counts down with the refill and rounds partial seconds up', () => {
    const empty = { tokens: 0, at: T0 }
    assert.equal(takeToken(FORMS, empty, T0 + 4_000).retryAfter, 6)
    assert.equal(takeToken(FORMS, empty, T0 + 9_001).retryAfter, 1)
    assert.equal(takeToken(FORMS, empty, T0 + 9_999).retryAfter, 1)
    assert.equal(takeToken(FORMS, empty, T0 + 10_000).allowed, true)
  })

  test('a fast class (600 per minute) refills a token in a tenth of a second, reported as 1 s', () => {
    const read = { burst: 120, per_minute: 600 }
    const refused = takeToken(read, { tokens: 0, at: T0 }, T0)
    assert.equal(refused.retryAfter, 1)
    assert.equal(takeToken(read, { tokens: 0, at: T0 }, T0 + 100).allowed, true)
  })

  test('after a burst the bucket sustains per_minute requests per minute, no more', () => {
    const policy = { burst: 3, per_minute: 12 }
    let state = takeMany(policy, undefined, T0, 3).at(-1)!.state
    let allowed = 0
    // One attempt a second for ten minutes: one token every 5 s comes back.
    for (let s = 1; s <= 600; s++) {
      const d = takeToken(policy, state, T0 + s * 1000)
      state = d.state
      if (d.allowed) allowed++
    }
    assert.equal(allowed, 120)
  })
})

describe('decide', () => {
  test('a bucket refused because another bucket of the request was empty keeps its tokens', () => {
    const d = decide(FORMS, 3, false, T0)
    assert.equal(d.allowed, false)
    assert.deepEqual(d.state, { tokens: 3, at: T0 })
    assert.equal(d.remaining, 3)
  })
})

// ---------------------------------------------------------------- properties

const policy = fc.record({ burst: fc.integer({ min: 1, max: 200 }), per_minute: fc.integer({ min: 1, max: 6000 }) })
/** Gaps between requests in milliseconds: often none (a flood), sometimes minutes. */
const gaps = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000 }), fc.integer({ min: 0, max: 600_000 })), { minLength: 1, maxLength: 200 })

function run(p: BucketPolicy, gapsMs: number[]) {
  let state: BucketState | undefined
  let now = T0
  const decisions = []
  for (const gap of gapsMs) {
    now += gap
    const d = takeToken(p, state, now)
    decisions.push({ now, d })
    state = d.state
  }
  return { decisions, state: state!, now }
}

test('property: over any run, allowed requests never exceed the burst plus what the rate refilled', () => {
  fc.assert(fc.property(policy, gaps, (p, gapsMs) => {
    const { decisions, now } = run(p, gapsMs)
    const allowed = decisions.filter((x) => x.d.allowed).length
    const elapsed = now - T0
    return allowed <= p.burst + Math.floor(elapsed * p.per_minute / 60_000 + 1e-9)
  }), { numRuns: 300 })
})

test('property: tokens stay within 0 and the burst, and the headers derived from them agree', () => {
  fc.assert(fc.property(policy, gaps, (p, gapsMs) => {
    const window = Math.ceil(p.burst / p.per_minute * 60)
    for (const { d } of run(p, gapsMs).decisions) {
      assert.ok(d.state.tokens >= 0 && d.state.tokens <= p.burst, `tokens ${d.state.tokens}`)
      assert.equal(d.remaining, Math.floor(d.state.tokens))
      assert.equal(d.allowed, d.retryAfter === 0)
      assert.ok(d.retryAfter <= d.resetAfter, `retryAfter ${d.retryAfter} <= resetAfter ${d.resetAfter}`)
      assert.ok(d.resetAfter <= window, `resetAfter ${d.resetAfter} <= window ${window}`)
    }
  }), { numRuns: 300 })
})

test('Retry-After covers a refill that rounding leaves a hair short of one token (burst 1, 5 a minute, requests at 0 and 2 s)', () => {
  const policy = { burst: 1, per_minute: 5 }
  const first = takeToken(policy, undefined, T0)
  const refused = takeToken(policy, first.state, T0 + 2000)
  assert.equal(refused.allowed, false)
  assert.equal(takeToken(policy, refused.state, T0 + 2000 + refused.retryAfter * 1000).allowed, true, `after ${refused.retryAfter} s`)
  assert.equal(takeToken(policy, refused.state, T0 + 2000 + (refused.retryAfter - 1) * 1000).allowed, false)
})

test('property: Retry-After is honest: a retry that waits it is allowed, one a second sooner is refused', () => {
  fc.assert(fc.property(policy, gaps, (p, gapsMs) => {
    const { decisions } = run(p, gapsMs)
    for (const { now, d } of decisions.filter((x) => !x.d.allowed)) {
      assert.equal(takeToken(p, d.state, now + d.retryAfter * 1000).allowed, true, `after ${d.retryAfter} s`)
      assert.equal(takeToken(p, d.state, now + (d.retryAfter - 1) * 1000).allowed, false, `after ${d.retryAfter - 1} s`)
    }
  }), { numRuns: 300 })
})
