import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../src/config/app-config';
import { MetricsRegistry } from '../../src/metrics/metrics-registry';
import { RedisConnection } from '../../src/shared-state/redis-connection.service';
import { afterFault, CLOSED, phaseOf, withTrial } from '../../src/upstream/breaker/breaker-state';
import { BreakerStates } from '../../src/upstream/breaker/breaker-states.service';
import { reachable, timeUntil } from '../support/own-redis';

// Tests src/upstream/breaker/breaker-states.service.ts: two instances' copies over one Redis (TEST_REDIS_URL), and one without it.
const REDIS_URL = process.env.TEST_REDIS_URL;
const rules = { failures: 5, cooldownMs: 30_000, maxCooldownMs: 600_000 };

describe('BreakerStates without Redis (per process)', () => {
  it('changes its own copy at once', async () => {
    const states = new BreakerStates(new RedisConnection({ redisKeyPrefix: 'gateway:' } as AppConfig, new MetricsRegistry()));
    states.onModuleInit();
    for (let i = 0; i < 5; i++) await states.update(7, (s) => afterFault(s, 1_000, rules));
    expect(phaseOf(states.get(7), 1_000)).toBe('open');
    expect(states.known().map(([id]) => id)).toEqual([7]);
    expect(await states.update(7, () => CLOSED)).toEqual(CLOSED);
    expect(states.known()).toEqual([]);
  });
});

(REDIS_URL ? describe : describe.skip)('BreakerStates of two instances on one Redis', () => {
  const pairs: Array<{ redis: RedisConnection; states: BreakerStates }> = [];
  let available = false;

  beforeAll(async () => {
    available = await reachable(REDIS_URL!);
    if (!available) return;
    const config = { redisUrl: REDIS_URL, redisKeyPrefix: `gwtest-${randomBytes(6).toString('hex')}:` } as AppConfig;
    for (let i = 0; i < 2; i++) {
      const redis = new RedisConnection(config, new MetricsRegistry());
      const states = new BreakerStates(redis);
      states.onModuleInit();
      pairs.push({ redis, states });
    }
    await timeUntil(async () => pairs.every(({ redis }) => redis.isUp), 10_000, 'both connections up');
  });
  afterAll(async () => {
    for (const { redis, states } of pairs) {
      states.onModuleDestroy();
      await redis.onApplicationShutdown();
    }
  });

  const [a, b] = [0, 1].map((i) => () => pairs[i].states);

  it('faults from both instances at once are all counted (compare-and-set), and each sees the same state within a second', async () => {
    if (!available) return;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a() : b()).update(1, (s) => afterFault(s, 1_000, { ...rules, failures: 100 }))),
    );
    await timeUntil(async () => a().get(1).failures === 20 && b().get(1).failures === 20, 1_000, 'both count 20 faults');
  });

  it('a breaker one opens is open on the other within a second; one trial of both at a time', async () => {
    if (!available) return;
    for (let i = 0; i < 5; i++) await a().update(2, (s) => afterFault(s, 1_000, rules));
    await timeUntil(async () => phaseOf(b().get(2), 1_000) === 'open', 1_000, 'b sees it open');
    const at = 1_000 + rules.cooldownMs;
    const trials = await Promise.all([a(), b(), a(), b()].map((states) => states.update(2, (s) => withTrial(s, at, 10_000))));
    expect(trials.filter((trial) => trial !== null)).toHaveLength(1);
    await b().update(2, () => CLOSED);
    await timeUntil(async () => phaseOf(a().get(2), at) === 'closed', 1_000, 'a sees it closed');
  });

  it('a change whose message was lost is read within about a second (the shared version)', async () => {
    if (!available) return;
    const { redis } = pairs[0];
    const open = JSON.stringify({ failures: 5, openedAt: 1_000, retryAt: 31_000, trips: 1, trialUntil: null });
    // Written as another instance would, but without its message.
    await redis.client!.hset(`${redis.keyPrefix}channel-breakers`, '3', open);
    await redis.client!.incr(`${redis.keyPrefix}channel-breakers:version`);
    const ms = await timeUntil(
      async () => phaseOf(a().get(3), 2_000) === 'open' && phaseOf(b().get(3), 2_000) === 'open',
      3_000,
      'both read it',
    );
    expect(ms).toBeLessThan(2_000);
  });
});
