import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN } from './support/gateway';
import { freePort, GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { startOwnRedis, stopOwnRedis, timeUntil } from './support/own-redis';
import { admin, customer, health, listVideos } from './support/process-api';
import { describeOnSqlite, FreshDatabase, freshDatabase } from './support/test-databases';

/** However busy the machine, far below the minute a cached key lived while a frozen Redis went unnoticed. */
const REVOCATION_BOUND_MS = 20_000;
/** What an operator may expect of SIGTERM with Redis unreachable or hung. */
const SHUTDOWN_BOUND_MS = 10_000;

/** Resolves 'exited' when the process ends within `ms` of SIGTERM, otherwise 'still running'. */
const stopsWithin = (gateway: GatewayProcess, ms: number) =>
  Promise.race([gateway.stop().then(() => 'exited'), new Promise((resolve) => setTimeout(() => resolve('still running'), ms))]);

/**
 * A Redis that hangs (SIGSTOP: the connections stay open, nothing answers) is treated as a lost one:
 * revocations spread within seconds, rate limits keep answering in process, and SIGTERM still ends
 * the process. Each run freezes a redis-server of its own, never the machine's. What is under test is
 * Redis and the gateway's handling of it; the database only holds the keys, so SQLite is enough.
 */
describeOnSqlite('a frozen or unreachable Redis', (kind) => {
  let database: FreshDatabase;
  let redis: ChildProcess;
  let redisUrl: string;
  const processes: GatewayProcess[] = [];

  const launch = async (url: string, prefix = `gwtest-${randomBytes(6).toString('hex')}:`) => {
    const gateway = await startGatewayProcess({
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      REDIS_URL: url,
      REDIS_KEY_PREFIX: prefix,
      TASK_SYNC_INTERVAL_MS: '0',
    });
    processes.push(gateway);
    return gateway;
  };
  const redisConnected = (gateway: GatewayProcess, connected: boolean) =>
    timeUntil(
      async () => (await health(gateway)).body.details.redis?.connected === connected,
      30_000,
      `health shows redis connected: ${connected}`,
    );

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const port = await freePort();
    redisUrl = `redis://127.0.0.1:${port}`;
    redis = await startOwnRedis(port);
  }, 60_000);
  afterAll(async () => {
    redis?.kill('SIGCONT');
    for (const gateway of processes.splice(0)) await gateway.crash();
    if (redis) await stopOwnRedis(redis);
    await database?.drop();
  });
  afterEach(() => {
    redis.kill('SIGCONT');
  });

  it('a key revoked on one instance while Redis is frozen is refused by the other within seconds; limits keep answering', async () => {
    // Both instances share one Redis prefix, so that b hears a's invalidations while Redis answers.
    const prefix = `gwtest-${randomBytes(6).toString('hex')}:`;
    const [a, b] = [await launch(redisUrl, prefix), await launch(redisUrl, prefix)];
    for (const gateway of [a, b]) await redisConnected(gateway, true);

    const revoked = await customer(a);
    const limited = await customer(a, { rpm: 3 });
    // Cached on b, for a minute while Redis answers.
    expect((await listVideos(b, revoked.key)).status).toBe(200);

    redis.kill('SIGSTOP');
    await admin(a, 'DELETE', `/api/admin/keys/${revoked.keyId}`);
    const refusedAfterMs = await timeUntil(
      async () => (await listVideos(b, revoked.key)).status === 401,
      60_000,
      'revoked key refused on b while Redis is frozen',
    );
    process.stdout.write(`[${kind}] revoked key refused on the other instance ${refusedAfterMs} ms after the revocation, Redis frozen\n`);
    expect(refusedAfterMs).toBeLessThan(REVOCATION_BOUND_MS);
    expect((await listVideos(b, revoked.key)).body.error.message).toBe('api key has been revoked');
    // Saying so in /health, and deciding limits in process: rpm 3 admits 3 on each instance, then a 429 with Retry-After.
    await redisConnected(a, false);
    for (const gateway of [a, b]) {
      for (let i = 0; i < 3; i++) expect((await listVideos(gateway, limited.key)).status).toBe(200);
      const refused = await listVideos(gateway, limited.key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }

    redis.kill('SIGCONT');
    for (const gateway of [a, b]) await redisConnected(gateway, true);
  }, 240_000);

  it(`SIGTERM ends the process within ${SHUTDOWN_BOUND_MS / 1000} s while Redis is frozen`, async () => {
    const gateway = await launch(redisUrl);
    await redisConnected(gateway, true);
    redis.kill('SIGSTOP');
    await redisConnected(gateway, false);
    expect(await stopsWithin(gateway, SHUTDOWN_BOUND_MS)).toBe('exited');
  }, 120_000);

  it(`SIGTERM ends the process within ${SHUTDOWN_BOUND_MS / 1000} s while Redis is unreachable`, async () => {
    // A Redis of this test's own, there at the start (a Redis missing then stops the start) and gone after it.
    const port = await freePort();
    const own = await startOwnRedis(port);
    const gateway = await launch(`redis://127.0.0.1:${port}`);
    await redisConnected(gateway, true);
    await stopOwnRedis(own);
    await redisConnected(gateway, false);
    expect(await stopsWithin(gateway, SHUTDOWN_BOUND_MS)).toBe('exited');
  }, 120_000);
});
