import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { withinTime } from '../common/runtime/within-time';

/** A Redis that has not answered a PING by then is as good as absent: a blackhole never closes the connection either. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Before the start: with REDIS_URL set, one connection and one PING. A Redis that is down, refuses the
 * password or never answers stops the start in one line naming REDIS_URL, rather than a gateway that
 * quietly runs on per-process limits from its first request (an outage after the start is survived:
 * see RedisConnection). Answers that line, or null when Redis answers (or is not configured).
 */
export async function checkRedis(config: AppConfig): Promise<string | null> {
  if (!config.redisUrl) return null;
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  redis.on('error', () => undefined);
  try {
    await withinTime(
      redis.connect().then(() => redis.ping()),
      PROBE_TIMEOUT_MS,
      () => new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`),
    );
    return null;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    return `REDIS_URL: no Redis answers at ${where(config.redisUrl)}: ${reason} (start Redis, or unset REDIS_URL to run one instance on its own limits)`;
  } finally {
    redis.disconnect();
  }
}

/** host:port of the URL, never its password. */
function where(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}
