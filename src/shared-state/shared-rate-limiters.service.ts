import { Injectable } from '@nestjs/common';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RedisConnection } from './redis-connection.service';

/**
 * rate-limiter-flexible's own increment script, with the window set in milliseconds (PX, from the
 * limiter's fractional `duration` in ARGV[4]) instead of whole seconds (EX), so a window may be 1.2 s.
 */
const INCREMENT_WITH_MS_WINDOW = `local ms = math.floor(tonumber(ARGV[4]) * 1000)
redis.call('set', KEYS[1], 0, 'PX', ms, 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('pexpire', KEYS[1], ms)
  ttl = ms
end
return {consumed, ttl}`;

export interface Decision {
  allowed: boolean;
  /** Until the window of this key ends (how long to wait when refused). */
  msBeforeNext: number;
}

/**
 * Fixed-window counters (rate-limiter-flexible) shared by every instance through Redis when
 * REDIS_URL is set, with an in-process limiter as insurance while Redis is unavailable; without
 * REDIS_URL the same counters live in this process only.
 */
/** One limiter's counters in Redis (null without REDIS_URL) and in process. */
interface LimiterPair {
  shared: RateLimiterAbstract | null;
  local: RateLimiterMemory;
}

@Injectable()
export class SharedRateLimiters {
  private readonly limiters = new Map<string, LimiterPair>();

  constructor(private readonly redis: RedisConnection) {}

  /**
   * Counts one call of `key` in the limiter `name` (`points` per `durationMs`, at least 1 s on Redis).
   * Limiters of one name share their counters whatever their points, so a changed limit applies at once.
   */
  async consume(name: string, points: number, durationMs: number, key: string): Promise<Decision> {
    const { shared, local } = this.limiter(name, points, durationMs);
    // Redis down or hung: decide in process at once rather than wait for a command to time out.
    const fallback = this.redis.configured && !this.redis.isUp;
    if (fallback) this.redis.countFallback();
    try {
      const result = await (shared && !fallback ? shared : local).consume(key);
      return { allowed: true, msBeforeNext: result.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { allowed: false, msBeforeNext: Math.max(0, error.msBeforeNext) };
      throw error;
    }
  }

  /** Whether `key` has points left in the limiter `name`, without counting a call (a failure is counted apart, by `consume`). */
  async peek(name: string, points: number, durationMs: number, key: string): Promise<Decision> {
    const { shared, local } = this.limiter(name, points, durationMs);
    const fallback = this.redis.configured && !this.redis.isUp;
    const used = await (shared && !fallback ? shared : local).get(key);
    if (!used || used.consumedPoints < points) return { allowed: true, msBeforeNext: used?.msBeforeNext ?? 0 };
    return { allowed: false, msBeforeNext: Math.max(0, used.msBeforeNext) };
  }

  private limiter(name: string, points: number, durationMs: number): LimiterPair {
    const id = `${name}|${points}|${durationMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const keyPrefix = `${this.redis.keyPrefix}rl:${name}`;
      const duration = durationMs / 1000;
      const local = new RateLimiterMemory({ keyPrefix, points, duration });
      let shared: RateLimiterAbstract | null = null;
      if (this.redis.client) {
        if (durationMs < 1000) throw new Error(`limiter ${name}: a shared window must be at least 1 s`);
        shared = new RateLimiterRedis({
          storeClient: this.redis.client,
          keyPrefix,
          points,
          duration,
          // Not connected: decide in process at once rather than wait for Redis.
          rejectIfRedisNotReady: true,
          insuranceLimiter: local,
          customIncrTtlLuaScript: INCREMENT_WITH_MS_WINDOW,
        });
      }
      limiter = { shared, local };
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
