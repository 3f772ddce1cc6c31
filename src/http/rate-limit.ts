import type { FastifyReply, FastifyRequest } from 'fastify'
import { decide, refill, type BucketDecision, type BucketPolicy, type BucketState, type RateClass } from '../domain/token-bucket.ts'
import { ApiError } from '../errors/api-error.ts'
import { SESSION_COOKIE } from './session.ts'

/**
 * Where token buckets live. A request is checked against several buckets (client address,
 * session) at once and spends from all of them or from none.
 */
export interface RateLimiter {
  takeAll(keys: string[], policy: BucketPolicy, nowMs: number): Promise<BucketDecision[]>
  close(): Promise<void>
}

const MAX_BUCKETS = 100_000

/** Token buckets in this process's memory; each node limits on its own. */
export class MemoryBuckets implements RateLimiter {
  private readonly buckets = new Map<string, BucketState>()

  async takeAll(keys: string[], policy: BucketPolicy, nowMs: number): Promise<BucketDecision[]> {
    const levels = keys.map((key) => refill(policy, this.buckets.get(key), nowMs))
    const allowed = levels.every((level) => level >= 1)
    return keys.map((key, i) => {
      const decision = decide(policy, levels[i], allowed, nowMs)
      if (this.buckets.size >= MAX_BUCKETS && !this.buckets.has(key)) this.evictOldest()
      this.buckets.delete(key)
      this.buckets.set(key, decision.state)
      return decision
    })
  }

  async close(): Promise<void> {}

  private evictOldest(): void {
    let n = 0
    for (const key of this.buckets.keys()) {
      this.buckets.delete(key)
      if (++n >= MAX_BUCKETS / 10) break
    }
  }
}

function rateClassOf(request: FastifyRequest): RateClass {
  return request.routeOptions.config.rateClass ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'booking')
}

/**
 * Spends one token from the client address's bucket and, when the request names a session
 * by cookie or X-Session, from the session's bucket too.
 */
export async function enforceRateLimit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const rateClass = rateClassOf(request)
  const instance = request.catalog.instance.ref
  const session = request.headers['x-session'] ?? request.cookies[SESSION_COOKIE]
  const keys = [`${instance}:${rateClass}:ip:${request.ip}`]
  if (typeof session === 'string' && session !== '') keys.push(`${instance}:${rateClass}:session:${session}`)
  await spendTokens(request, reply, rateClass, keys)
}

/** Spends one token of the `octo` class from the bucket of the request's reseller key (set by the OCTo surface's credential check). */
export async function enforceKeyRateLimit(request: FastifyRequest, reply: FastifyReply, keyId: string): Promise<void> {
  await spendTokens(request, reply, 'octo', [`${request.catalog.instance.ref}:octo:key:${keyId}`])
}

/**
 * Spends one token from every bucket of `keys` or from none. Answers with the RateLimit-Policy
 * and RateLimit headers of the IETF ratelimit-headers draft, and 429 rate_limited with
 * Retry-After when a bucket is empty.
 */
async function spendTokens(request: FastifyRequest, reply: FastifyReply, rateClass: RateClass, keys: string[]): Promise<void> {
  const { rateLimiter, clock } = request.server.httpParts
  if (rateLimiter === null) return
  const policy = request.catalog.rateLimits[rateClass]
  const now = Number(clock.now().epochMilliseconds)
  const decisions = await rateLimiter.takeAll(keys, policy, now)
  const tightest = decisions.reduce((a, b) => (b.retryAfter > a.retryAfter || (b.retryAfter === a.retryAfter && b.remaining < a.remaining) ? b : a))
  const window = Math.ceil(policy.burst / policy.per_minute * 60)
  reply.header('RateLimit-Policy', `"${rateClass}";q=${policy.burst};w=${window}`)
  reply.header('RateLimit', `"${rateClass}";r=${tightest.remaining};t=${tightest.resetAfter}`)
  if (!tightest.allowed) {
    throw new ApiError('rate_limited', `Too many ${rateClass} requests; retry in ${tightest.retryAfter} s`, {
      headers: { 'Retry-After': String(tightest.retryAfter) },
    })
  }
}
