import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import type { AppConfig } from '../config/app-config';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { RedisConnection } from './redis-connection.service';
import { SharedRateLimiters } from './shared-rate-limiters.service';
import { laneLayout, SpacedRateLimiter } from './spaced-rate-limiter.service';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const perSecond = (limit: number) => ({ limit, windowMs: 1000 });

/** How many of `times` fall into the busiest window of `windowMs`. */
const busiestWindow = (times: number[], windowMs: number) =>
  Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

const connection = (redisUrl?: string) =>
  new RedisConnection({ redisUrl, redisKeyPrefix: `test-${randomBytes(4).toString('hex')}:` } as AppConfig, new MetricsRegistry());

const redisReachable = () =>
  new Promise<boolean>((resolve) => {
    const url = new URL(REDIS_URL);
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(Number(url.port || 6379), url.hostname);
  });

/** `count` callers at once on `limiters` (round robin); the moments each was let through. */
async function burst(limiters: SpacedRateLimiter[], key: string, count: number, maxWaitMs: number) {
  const sent: number[] = [];
  const outcomes = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const ok = await limiters[i % limiters.length].acquire(key, perSecond(3), maxWaitMs);
      if (ok) sent.push(Date.now());
      return ok;
    }),
  );
  return { sent, admitted: outcomes.filter(Boolean).length };
}

describe('laneLayout', () => {
  it('gives small limits one lane of one call per 1.2 windows each, large ones up to 10 lanes of several', () => {
    expect(laneLayout(perSecond(3))).toEqual({ lanes: 3, pointsPerLane: 1, laneWindowMs: 1200 });
    // A lane of p points puts at most 2p - 1 calls into one window: 10 * 9 <= 100, 10 * 29 <= 300.
    expect(laneLayout(perSecond(100))).toEqual({ lanes: 10, pointsPerLane: 5, laneWindowMs: 1200 });
    expect(laneLayout({ limit: 300, windowMs: 60_000 })).toEqual({ lanes: 10, pointsPerLane: 15, laneWindowMs: 72_000 });
  });
});

describe('SpacedRateLimiter in process (no REDIS_URL)', () => {
  it('never lets more than the limit into any window, waits for a free lane, refuses past the longest wait', async () => {
    const limiter = new SpacedRateLimiter(new SharedRateLimiters(connection()));
    const started = Date.now();
    const { sent, admitted } = await burst([limiter], 'k', 8, 2_000);
    // 3 at once, 3 more one lane window (1.2 s) later; the rest would wait past 2 s.
    expect(admitted).toBe(6);
    expect(busiestWindow(sent, 1000)).toBe(3);
    expect(busiestWindow(sent, 1150)).toBe(3);
    expect(Math.max(...sent) - started).toBeGreaterThanOrEqual(1150);
    // Another key has lanes of its own.
    expect(await limiter.acquire('other', perSecond(3), 0)).toBe(true);
  });
});

describe('SpacedRateLimiter shared through Redis', () => {
  let available = false;
  const connections: RedisConnection[] = [];
  beforeAll(async () => {
    available = await redisReachable();
    if (!available) console.warn(`Redis at ${REDIS_URL} is not reachable: the shared SpacedRateLimiter test is SKIPPED.`);
  });
  afterAll(async () => {
    for (const c of connections) await c.onApplicationShutdown();
  });

  it('keeps two instances together under the limit', async () => {
    if (!available) return;
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const instance = () => {
      const c = new RedisConnection({ redisUrl: REDIS_URL, redisKeyPrefix: prefix } as AppConfig, new MetricsRegistry());
      connections.push(c);
      return new SpacedRateLimiter(new SharedRateLimiters(c));
    };
    const a = instance();
    const b = instance();
    // Wait for both connections to be up (a busy machine may take more than a moment), not for a time.
    for (let waited = 0; !connections.every((c) => c.isUp) && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(connections.every((c) => c.isUp)).toBe(true);
    const { sent, admitted } = await burst([a, b], 'shared', 10, 2_000);
    expect(admitted).toBe(6);
    expect(busiestWindow(sent, 1000)).toBe(3);
  });
});
