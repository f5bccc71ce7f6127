import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { freePort, GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { reachable, startOwnRedis, stopOwnRedis, timeUntil } from './support/own-redis';
import { admin, call, customer, health, listVideos } from './support/process-api';
import { databaseKinds, FreshDatabase, freshDatabase } from './support/test-databases';

/**
 * Two real gateway processes on one MariaDB database and one Redis: revocations, the account rate
 * limit and the family C provider limit hold across both, and they keep serving while Redis is down.
 * The machine's Redis is shared with other runs: every gateway here uses a key prefix of its own.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onMysql = databaseKinds().includes('mysql');

const metric = async (gateway: GatewayProcess, name: string) => {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
};

/** How late the fake may stamp an arrival on a busy machine (see the rate test). */
const ARRIVAL_STAMP_SLACK_MS = 200;
/** How many of `times` fall into the busiest window of `windowMs`. */
const busiestWindow = (times: number[], windowMs: number) =>
  Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

(onMysql ? describe : describe.skip)('several instances on MariaDB and Redis', () => {
  let database: FreshDatabase;
  let fake: GammaEmulatorServer;
  let redisAvailable = false;
  const processes: GatewayProcess[] = [];
  const ownRedis: ChildProcess[] = [];

  const launch = async (redisUrl: string, prefix: string, env: Record<string, string> = {}) => {
    const gateway = await startGatewayProcess({
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: prefix,
      TASK_SYNC_INTERVAL_MS: '0',
      ASSET_FOLLOW_UP_INTERVAL_MS: '0',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      ...env,
    });
    processes.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    redisAvailable = await reachable(REDIS_URL);
    if (!redisAvailable) console.warn(`Redis at ${REDIS_URL} (TEST_REDIS_URL) is not reachable: the several-instances suite is SKIPPED.`);
    database = await freshDatabase('mysql');
    fake = await startGammaEmulator();
  }, 60_000);
  afterAll(async () => {
    for (const gateway of processes.splice(0)) await gateway.crash();
    for (const child of ownRedis.splice(0)) await stopOwnRedis(child);
    await fake?.close();
    await database?.drop();
  });

  describe('on the shared Redis', () => {
    let a: GatewayProcess;
    let b: GatewayProcess;
    beforeAll(async () => {
      if (!redisAvailable) return;
      const prefix = `gwtest-${randomBytes(6).toString('hex')}:`;
      a = await launch(REDIS_URL, prefix);
      b = await launch(REDIS_URL, prefix);
    }, 120_000);

    it('a key revoked on one instance is refused by the other within a second; so is a disabled account, and a changed limit applies', async () => {
      if (!redisAvailable) return;
      const revoked = await customer(a);
      expect((await listVideos(b, revoked.key)).status).toBe(200); // now in b's cache
      await admin(a, 'DELETE', `/api/admin/keys/${revoked.keyId}`);
      const revokeMs = await timeUntil(async () => (await listVideos(b, revoked.key)).status === 401, 5_000, 'revoked key refused on b');
      expect(revokeMs).toBeLessThan(1_000);
      expect((await listVideos(b, revoked.key)).body.error.message).toBe('api key has been revoked');

      const disabled = await customer(b);
      expect((await listVideos(a, disabled.key)).status).toBe(200);
      await admin(b, 'PATCH', `/api/admin/users/${disabled.userId}`, { status: 'disabled' });
      expect(
        await timeUntil(async () => (await listVideos(a, disabled.key)).status === 401, 5_000, 'disabled account refused on a'),
      ).toBeLessThan(1_000);

      // A changed rate limit is a changed user too: b learns it from a at once.
      const limited = await customer(a);
      expect((await listVideos(b, limited.key)).status).toBe(200);
      await admin(a, 'PATCH', `/api/admin/users/${limited.userId}`, { rpm: 1 });
      expect(await timeUntil(async () => (await listVideos(b, limited.key)).status === 429, 5_000, 'new limit applied on b')).toBeLessThan(
        1_000,
      );
    }, 60_000);

    it('rpm: 10 admits exactly 10 of 20 requests spread over both instances', async () => {
      if (!redisAvailable) return;
      const { key } = await customer(a, { rpm: 10 });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => listVideos(i % 2 ? a : b, key)));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(10);
      const refused = answers.filter((res) => res.status === 429);
      expect(refused).toHaveLength(10);
      for (const res of refused) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(res.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      }
      // The unified surface answers in its own shape.
      const unified = await call(b, key, 'GET', '/v1/video/generations/task_unknown');
      expect(unified.status).toBe(429);
      expect(unified.body).toEqual({
        code: 'rate_limited',
        message: 'rate limit reached: this account may send 10 requests per minute',
        data: null,
      });
    }, 60_000);

    it('12 family C session creations over both instances never put more than 3 calls within any second at the provider', async () => {
      if (!redisAvailable) return;
      await admin(a, 'POST', '/api/admin/channels', fake.channelBody());
      const { userId, key } = await customer(a);
      await admin(a, 'PATCH', `/api/admin/users/${userId}`, { verification_enabled: true });
      const before = fake.controlCalls.length;
      let throttled = 0;
      // Twelve clients at once, six on each instance; each retries after Retry-After until it has its session.
      const sessions = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          for (;;) {
            const res = await call(i % 2 ? a : b, key, 'POST', '/v1/verification/sessions', { callback_url: 'https://biz.example/cb' });
            if (res.status !== 429) return res;
            throttled++;
            expect(res.body.error.type).toBe('rate_limit_error');
            await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after')) * 1000));
          }
        }),
      );
      expect(sessions.map((res) => res.status)).toEqual(Array(12).fill(201));
      const arrivals = fake.controlCalls
        .slice(before)
        .filter((c) => c.action === 'CreateVisualValidateSession')
        .map((c) => c.at);
      expect(arrivals).toHaveLength(12);
      // Arrivals are stamped by the fake inside this (busy) test process, late by however long its event
      // loop was held up, so two calls can look up to that much closer than they came: counted over 800 ms.
      // Without the shared limiter, each instance would send 3 at once: 6 within a millisecond.
      expect(busiestWindow(arrivals, 1000 - ARRIVAL_STAMP_SLACK_MS)).toBeLessThanOrEqual(3);
      // The burst was larger than the provider allows: some clients had to come back.
      expect(throttled).toBeGreaterThan(0);
    }, 60_000);
  });

  describe('while Redis is down', () => {
    let c: GatewayProcess;
    let d: GatewayProcess;
    let port: number;
    let redis: ChildProcess;
    const redisUp = async (connected: boolean, timeoutMs: number) => {
      for (const gateway of [c, d]) {
        await timeUntil(
          async () => (await health(gateway)).body.details.redis?.connected === connected,
          timeoutMs,
          `health shows redis connected: ${connected}`,
        );
        const report = await health(gateway);
        expect(report.status).toBe(200);
        expect(report.body.details.redis.status).toBe('up');
        expect(await metric(gateway, 'gateway_redis_up')).toBe(connected ? 1 : 0);
      }
    };
    /** rpm 4 over both instances: the fifth request is refused on either, so the count is shared. */
    const expectShared = async () => {
      const shared = await customer(c, { rpm: 4 });
      for (const gateway of [c, d, c, d]) expect((await listVideos(gateway, shared.key)).status).toBe(200);
      expect((await listVideos(c, shared.key)).status).toBe(429);
      expect((await listVideos(d, shared.key)).status).toBe(429);
      const revoked = await customer(c);
      expect((await listVideos(d, revoked.key)).status).toBe(200);
      await admin(c, 'DELETE', `/api/admin/keys/${revoked.keyId}`);
      expect(
        await timeUntil(async () => (await listVideos(d, revoked.key)).status === 401, 5_000, 'revoked key refused on d'),
      ).toBeLessThan(1_000);
    };

    beforeAll(async () => {
      if (!redisAvailable) return;
      // A redis-server of this test's own, there at the start (a Redis missing then stops the start).
      port = await freePort();
      redis = await startOwnRedis(port);
      ownRedis.push(redis);
      const prefix = `gwtest-${randomBytes(6).toString('hex')}:`;
      // info: the loss and the return of Redis are logged at warn and log level.
      c = await launch(`redis://127.0.0.1:${port}`, prefix, { LOG_LEVEL: 'info' });
      d = await launch(`redis://127.0.0.1:${port}`, prefix, { LOG_LEVEL: 'info' });
    }, 120_000);

    it('both instances share through it, keep serving on in-process limits when it stops, and share again when it returns', async () => {
      if (!redisAvailable) return;
      await redisUp(true, 10_000);
      await expectShared();

      // Where each instance's log stood when the outage began (a busy start may have logged a slow first connection).
      const logAtOutage = [c.output().length, d.output().length];
      await stopOwnRedis(redis);
      await redisUp(false, 5_000);
      // Each instance now counts on its own: rpm 3 admits 3 on each.
      const alone = await customer(c, { rpm: 3 });
      for (const gateway of [c, d]) {
        for (let i = 0; i < 3; i++) expect((await listVideos(gateway, alone.key)).status).toBe(200);
        const refused = await listVideos(gateway, alone.key);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      expect(await metric(c, 'gateway_redis_fallback_decisions_total')).toBeGreaterThan(0);
      // Revocations spread by the short cache lifetime meanwhile (2 s).
      const revoked = await customer(c);
      expect((await listVideos(d, revoked.key)).status).toBe(200);
      await admin(c, 'DELETE', `/api/admin/keys/${revoked.keyId}`);
      expect(
        await timeUntil(
          async () => (await listVideos(d, revoked.key)).status === 401,
          5_000,
          'revoked key refused on d while Redis is down',
        ),
      ).toBeLessThan(3_000);

      const logAtReturn = [c.output().length, d.output().length];
      redis = await startOwnRedis(port);
      ownRedis.push(redis);
      await redisUp(true, 10_000);
      await expectShared();

      // Logged once for the outage, however many reconnect attempts there were; and the return once.
      [c, d].forEach((gateway, i) => {
        const outage = gateway.output().slice(logAtOutage[i], logAtReturn[i]);
        expect(outage.match(/Redis is unavailable/g)).toHaveLength(1);
        expect(outage.match(/Redis is back/g)).toBeNull();
        // From the return on: back first, and every state said once per change, never twice in a row
        // (a heartbeat missed on a busy machine is a change of its own, logged as one).
        const changes =
          gateway
            .output()
            .slice(logAtReturn[i])
            .match(/Redis is (unavailable|back)/g) ?? [];
        expect(changes[0]).toBe('Redis is back');
        expect(changes.every((line, n) => n === 0 || line !== changes[n - 1])).toBe(true);
      });
    }, 120_000);
  });
});

if (!onMysql) {
  describe('several instances (needs MariaDB)', () => {
    it.skip('needs TEST_MYSQL_URL (several processes share one MySQL database): SKIPPED', () => undefined);
  });
}
