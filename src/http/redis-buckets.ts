import { Redis } from 'ioredis'
import { decide, type BucketDecision, type BucketPolicy } from '../domain/token-bucket.ts'
import type { RateLimiter } from './rate-limit.ts'

/**
 * Refills every bucket of one request, spends one token from each only if all have one, and
 * returns each bucket's level after that, in one atomic script (so nodes sharing the Redis
 * enforce one budget). Levels come back as strings because Redis truncates Lua numbers.
 */
const TAKE_ALL = `
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local levels = {}
local allowed = 1
for i, key in ipairs(KEYS) do
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local level = burst
  if state[1] then
    level = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * per_ms)
  end
  levels[i] = level
  if level < 1 then allowed = 0 end
end
local result = { allowed }
for i, key in ipairs(KEYS) do
  local after = levels[i]
  if allowed == 1 then after = after - 1 end
  redis.call('HSET', key, 'tokens', tostring(after), 'at', tostring(now))
  redis.call('PEXPIRE', key, ttl)
  result[#result + 1] = tostring(levels[i])
end
return result
`

export interface RedisBucketsOptions {
  /** Called when Redis cannot be asked; the request is then let through. */
  onError(err: unknown): void
}

/**
 * Token buckets in Redis, shared by every node. If Redis is unreachable the limiter fails
 * open: a rate limit must never take bookings down with it.
 */
export class RedisBuckets implements RateLimiter {
  private readonly redis: Redis

  constructor(url: string, private readonly options: RedisBucketsOptions) {
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, lazyConnect: false })
    this.redis.on('error', (err) => options.onError(err))
    this.redis.defineCommand('tourdeskTakeAll', { lua: TAKE_ALL })
  }

  async takeAll(keys: string[], policy: BucketPolicy, nowMs: number): Promise<BucketDecision[]> {
    const perMs = policy.per_minute / 60_000
    const ttlMs = Math.ceil(policy.burst / perMs) + 1000
    try {
      const [allowed, ...levels] = await (this.redis as unknown as {
        tourdeskTakeAll(n: number, ...args: (string | number)[]): Promise<[number, ...string[]]>
      }).tourdeskTakeAll(keys.length, ...keys.map((k) => `tourdesk:rl:${k}`), policy.burst, perMs, nowMs, ttlMs)
      return levels.map((level) => decide(policy, Number(level), allowed === 1, nowMs))
    } catch (err) {
      this.options.onError(err)
      return keys.map(() => decide(policy, policy.burst, true, nowMs))
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect()
  }
}
