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
@Injectable()
export class SharedRateLimiters {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis: RedisConnection) {}

  /**
   * Counts one call of `key` in the limiter `name` (`points` per `durationMs`, at least 1 s on Redis).
   * Limiters of one name share their counters whatever their points, so a changed limit applies at once.
   */
  async consume(name: string, points: number, durationMs: number, key: string): Promise<Decision> {
    if (this.redis.configured && !this.redis.isUp) this.redis.countFallback();
    try {
      const result = await this.limiter(name, points, durationMs).consume(key);
      return { allowed: true, msBeforeNext: result.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { allowed: false, msBeforeNext: Math.max(0, error.msBeforeNext) };
      throw error;
    }
  }

  private limiter(name: string, points: number, durationMs: number): RateLimiterAbstract {
    const id = `${name}|${points}|${durationMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const keyPrefix = `${this.redis.keyPrefix}rl:${name}`;
      const duration = durationMs / 1000;
      const memory = new RateLimiterMemory({ keyPrefix, points, duration });
      if (this.redis.client) {
        if (durationMs < 1000) throw new Error(`limiter ${name}: a shared window must be at least 1 s`);
        limiter = new RateLimiterRedis({
          storeClient: this.redis.client,
          keyPrefix,
          points,
          duration,
          // Not connected: decide in process at once rather than wait for Redis.
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
          customIncrTtlLuaScript: INCREMENT_WITH_MS_WINDOW,
        });
      } else {
        limiter = memory;
      }
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
