import { randomBytes } from 'node:crypto';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { reachable, timeUntil } from './support/own-redis';
import { admin, call, customer } from './support/process-api';
import { DatabaseKind, databaseKinds, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

/**
 * Channel breakers across two real gateway processes on one database (MariaDB, PostgreSQL) and one
 * Redis: the faults one instance sees count for both, a breaker one opens the other honours within a
 * second, one trial at a time runs on all of them, and a healed channel serves again within one cool-down.
 * The machine's Redis is shared with other runs: every pair here uses a key prefix of its own.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const FAILURES = 5;
const COOLDOWN_MS = 2_000;
const kinds = databaseKinds().filter((kind) => kind !== 'sqlite');

const describeShared = kinds.length > 0 ? describe.each<DatabaseKind>(kinds) : describe.skip.each<DatabaseKind>(['mysql']);

describeShared('[%s] channel breakers on two instances sharing Redis', (kind: DatabaseKind) => {
  let database: FreshDatabase;
  let failing: AlphaEmulatorServer;
  let healthy: AlphaEmulatorServer;
  let redisAvailable = false;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let failingId: number;
  let key: string;
  let userId: number;

  beforeAll(async () => {
    redisAvailable = await reachable(REDIS_URL);
    if (!redisAvailable) {
      console.warn(`Redis at ${REDIS_URL} (TEST_REDIS_URL) is not reachable: the shared breaker suite is SKIPPED.`);
      return;
    }
    database = await freshDatabase(kind);
    [failing, healthy] = await Promise.all([startAlphaEmulator(), startAlphaEmulator({ apiKey: 'healthy-key' })]);
    const env = {
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      REDIS_URL,
      REDIS_KEY_PREFIX: `gwtest-${randomBytes(6).toString('hex')}:`,
      TASK_SYNC_INTERVAL_MS: '0',
      ASSET_FOLLOW_UP_INTERVAL_MS: '0',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      CHANNEL_BREAKER_FAILURES: String(FAILURES),
      CHANNEL_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
    };
    a = await startGatewayProcess(env);
    b = await startGatewayProcess(env);
    failingId = (await admin(a, 'POST', '/api/admin/channels', alphaChannelBody(failing, { name: 'failing', priority: 10 }))).id;
    await admin(a, 'POST', '/api/admin/channels', alphaChannelBody(healthy, { name: 'healthy', priority: 0 }));
    ({ key, userId } = await customer(a, { quota: 100_000_000 }));
    // b reads channels at most a second late.
    await timeUntil(async () => (await submit(b)).status === 200, 10_000, 'b routes to the new channels');
  }, 180_000);
  afterAll(async () => {
    for (const gateway of [a, b]) await gateway?.crash();
    await Promise.all([failing?.close(), healthy?.close()]);
    await database?.drop();
  });

  const submit = (gateway: GatewayProcess, prompt = 'a kite') => call(gateway, key, 'POST', '/v1/videos', { model: 'alpha/v5', prompt });
  const breakerOn = async (gateway: GatewayProcess) => (await admin(gateway, 'GET', `/api/admin/channels/${failingId}`)).breaker;
  const metricOn = async (gateway: GatewayProcess) => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    return Number(new RegExp(`^gateway_channel_breaker_state\\{channel="${failingId}"\\} (\\d)$`, 'm').exec(text)?.[1]);
  };
  const failingCalls = () => failing.calls('generate').length;

  it('faults seen by both count together; a breaker a opens is honoured by b within a second', async () => {
    if (!redisAvailable) return;
    failing.inject('generate', { http: 500 });
    // Two faults on b, then a opens the breaker with the rest of the run.
    for (let i = 0; i < 2; i++) expect((await submit(b)).status).toBe(200);
    expect((await breakerOn(b)).failures).toBe(2);
    let submitsOnA = 0;
    while ((await breakerOn(a)).state !== 'open') {
      expect((await submit(a)).status).toBe(200);
      submitsOnA++;
    }
    expect(submitsOnA).toBe(FAILURES - 2);
    const openMs = await timeUntil(async () => (await breakerOn(b)).state === 'open', 5_000, 'b sees the breaker open');
    console.log(`[${kind}] b saw the breaker a opened after ${openMs} ms`);
    expect(openMs).toBeLessThan(1_000);
    expect(await metricOn(b)).toBe(2);
    // Open until retry_at (whole seconds, rounded up): nothing reaches the channel before the second it
    // falls in; a machine slow enough to reach it lets one trial through, which fails and reopens.
    const { retry_at: retryAt } = await breakerOn(b);
    const before = failingCalls();
    for (let i = 0; i < 10; i++) expect((await submit(i % 2 ? a : b)).status).toBe(200);
    const reached = failing.calls('generate').slice(before);
    expect(reached.filter((request) => request.at < (retryAt - 1) * 1000)).toEqual([]);
    expect(reached.length).toBeLessThanOrEqual(1);
  }, 60_000);

  it('200 submits over both: no client failure, one charge each; the failing channel gets at most failures + 1 per cool-down; healed, it serves within one cool-down', async () => {
    if (!redisAvailable) return;
    await admin(a, 'POST', `/api/admin/channels/${failingId}/breaker/close`);
    await timeUntil(async () => (await breakerOn(b)).state === 'closed', 5_000, 'b sees the breaker closed');
    failing.inject('generate', { http: 500 });
    const tasksBefore = Number(
      (await queryDatabase<{ n: number | string }>(database, `SELECT COUNT(*) AS n FROM tasks WHERE user_id = ${userId}`))[0].n,
    );
    const statuses: number[] = [];
    const started = Date.now();
    // Four clients, two on each instance, 50 submits each, 40 ms apart: the run spans a few cool-downs.
    const client = async (gateway: GatewayProcess, n: number) => {
      for (let i = 0; i < n; i++) {
        statuses.push((await submit(gateway, `kite ${i}`)).status);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    };
    await Promise.all([client(a, 50), client(b, 50), client(a, 50), client(b, 50)]);
    const elapsedMs = Date.now() - started;
    // What reached the failing channel: the streak that opened its breaker, then one trial per cool-down (each twice as long).
    const arrivals = failing
      .calls('generate')
      .map((request) => request.at)
      .filter((at) => at >= started)
      .sort((x, y) => x - y);
    const streak = arrivals.filter((at) => at < arrivals[0] + COOLDOWN_MS / 2);
    const trials = arrivals.slice(streak.length);
    const gaps = trials.map((at, i) => at - (i === 0 ? streak[streak.length - 1] : trials[i - 1]));
    console.log(
      `[${kind}] 200 submits on two instances (4 clients) in ${elapsedMs} ms: the failing channel got ${arrivals.length}: ` +
        `${streak.length} before its breaker opened, then ${trials.length} trials, ${JSON.stringify(gaps)} ms apart (cool-down ${COOLDOWN_MS} ms, doubling)`,
    );
    // The first cool-down: the streak (no more under way at once, over both instances, than the faults still missing) and its trial.
    expect(streak.length).toBeLessThanOrEqual(FAILURES);
    expect(trials.length).toBeGreaterThanOrEqual(1);
    expect(gaps.every((gap) => gap >= COOLDOWN_MS - 100)).toBe(true);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const charges = await queryDatabase<{ task_id: string; n: number | string }>(
      database,
      `SELECT task_id, COUNT(*) AS n FROM logs WHERE user_id = ${userId} AND type = 'consume' GROUP BY task_id`,
    );
    expect(charges.length).toBe(tasksBefore + 200);
    expect(charges.every((row) => Number(row.n) === 1)).toBe(true);

    // Healed: it serves again within one cool-down, on either instance.
    failing.clearFaults();
    const breaker = await breakerOn(a);
    const cooldownMs = (breaker.retry_at - breaker.opened_at) * 1000;
    const before = failingCalls();
    const recoveryMs = await timeUntil(
      async () => {
        await submit(a, 'healed?');
        return failingCalls() > before && (await breakerOn(b)).state === 'closed';
      },
      30_000,
      'the healed channel serves again',
    );
    console.log(`[${kind}] healed channel served again ${recoveryMs} ms after healing (its cool-down then: ${cooldownMs} ms)`);
    expect(recoveryMs).toBeLessThanOrEqual(cooldownMs + 1_000);
    expect(await metricOn(b)).toBe(0);
  }, 120_000);
});
