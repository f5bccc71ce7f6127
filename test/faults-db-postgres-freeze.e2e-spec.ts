import { performance } from 'node:perf_hooks';
import { AlphaEmulatorServer, alphaChannelBody, startAlphaEmulator } from './support/alpha-emulator';
import { gatewayCaller, waitUntilHealthy } from './support/database-outage';
import { startGateway, TestGateway } from './support/gateway';
import { freePort } from './support/gateway-process';
import { canRunOwnPostgres, OwnPostgres, startOwnPostgres } from './support/own-postgres';
import { describeOnPostgres, FreshDatabase, queryDatabase } from './support/test-databases';
import { until } from './support/until';

const QUERY_TIMEOUT_MS = 1000;
/** The deadline case's timeout: long enough that a queued wait plus a query would clearly exceed it twice. */
const DEADLINE_TIMEOUT_MS = 2000;
/** Far above what a bounded answer needs (a timeout or two), far below a hang. */
const ANSWER_WITHIN_MS = 8000;
const describeWithOwnServer = canRunOwnPostgres() ? describeOnPostgres : describe.skip;

/**
 * A PostgreSQL server of the test's own, frozen with SIGSTOP (the postmaster and every backend:
 * connections stay open, nothing answers, as a hung host): every surface answers a 503 with
 * Retry-After within the query timeout, the pool recovers without a restart once it thaws, and
 * every submit the gateway acknowledged is charged exactly once, none it refused is.
 */
describeWithOwnServer('[postgres] a frozen PostgreSQL is a 503 with Retry-After, with no write lost', () => {
  let server: OwnPostgres;
  let database: FreshDatabase;
  let gateway: TestGateway;
  let alpha: AlphaEmulatorServer;
  let customer: { userId: number; key: string };
  let taskId: string;
  let openingBalance: number;
  const acknowledged: string[] = [];

  const call = gatewayCaller(() => ({ url: gateway.url, key: customer.key }), ANSWER_WITHIN_MS);

  const submit = async (prompt: string) => {
    const answer = await call('POST', '/v1/videos', { model: 'alpha/v5', prompt });
    if (answer.status === 200) acknowledged.push(answer.body.id);
    return answer;
  };

  beforeAll(async () => {
    // A port of its own each run: a cluster left behind by a killed run cannot stand in the way.
    server = await startOwnPostgres(await freePort());
    database = { kind: 'postgres', url: server.url, drop: async () => undefined };
    gateway = await startGateway('postgres', { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) }, database);
    alpha = await startAlphaEmulator();
    await gateway.createChannel(alphaChannelBody(alpha));
    customer = await gateway.createCustomer({ quota: 1_000_000 });
    openingBalance = (await gateway.balance(customer.userId)).quota;
    const first = await submit('before the freeze');
    expect(first.status).toBe(200);
    taskId = first.body.id;
  }, 150_000);

  afterAll(async () => {
    server?.thaw();
    await gateway?.close();
    await alpha?.close();
    await server?.stop();
  });

  it('answers 503 with Retry-After on every surface while frozen, then serves again', async () => {
    server.freeze();
    const answers = {
      submit: submit('during the freeze'),
      read: call('GET', `/v1/videos/${taskId}`),
      admin: call('GET', `/api/admin/users/${customer.userId}`),
      health: call('GET', '/health'),
    };
    for (const [name, pending] of Object.entries(answers)) {
      const answer = await pending;
      expect({ name, status: answer.status }).toEqual({ name, status: 503 });
      if (name === 'health') continue;
      expect({ name, retryAfter: answer.retryAfter }).toEqual({ name, retryAfter: expect.stringMatching(/^\d+$/) });
      expect(answer.body.error).toMatchObject({ code: 'service_unavailable', type: 'server_error' });
    }
    server.thaw();
    await waitUntilHealthy(call);
    expect((await submit('after the freeze')).status).toBe(200);
    expect((await call('GET', `/v1/videos/${taskId}`)).status).toBe(200);
  });

  it('loses no write when it freezes in the middle of a burst of submits', async () => {
    const burst = Array.from({ length: 8 }, (_, i) => submit(`burst ${i}`));
    // Frozen while some of them are still on their way to the database.
    await new Promise((resolve) => setImmediate(resolve));
    server.freeze();
    const answers = await Promise.all(burst);
    server.thaw();
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    await waitUntilHealthy(call);
    // Every acknowledged task is still there and readable.
    for (const id of acknowledged) expect((await call('GET', `/v1/videos/${id}`)).status).toBe(200);
  });

  it('answers every request within about one query timeout even when most first wait for a pool connection', async () => {
    // Fewer connections than concurrent requests: most of them first wait for a connection a hung query holds.
    const small = await startGateway(
      'postgres',
      { DATABASE_QUERY_TIMEOUT_MS: String(DEADLINE_TIMEOUT_MS), DATABASE_POOL_SIZE: '2' },
      database,
    );
    try {
      const read = async () => {
        const started = performance.now();
        const res = await fetch(`${small.url}/v1/videos/${taskId}`, { headers: { Authorization: `Bearer ${customer.key}` } });
        await res.text();
        return { status: res.status, retryAfter: res.headers.get('retry-after'), tookMs: performance.now() - started };
      };
      expect((await read()).status).toBe(200);
      server.freeze();
      const answers = await Promise.all(Array.from({ length: 6 }, () => read()));
      server.thaw();
      for (const answer of answers) expect(answer).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
      // Loose on purpose (a busy machine): one timeout plus slack, where a queued wait made it two or more.
      expect(Math.max(...answers.map((answer) => answer.tookMs))).toBeLessThan(2 * DEADLINE_TIMEOUT_MS);
      await until('a read answered 200 again', () => read().catch(() => undefined), {
        done: (answer) => answer?.status === 200,
        timeoutMs: 20_000,
        everyMs: 250,
      });
    } finally {
      server.thaw();
      await small.close();
    }
  });

  it('charged exactly the submits it acknowledged, each once, and every quota movement is a ledger row', async () => {
    const tasks = await queryDatabase<{ task_id: string; quota: string }>(
      database,
      `SELECT task_id, quota FROM tasks WHERE user_id = ${customer.userId}`,
    );
    const quotaOf = new Map(tasks.map((task) => [task.task_id, Number(task.quota)]));
    const perTask = await queryDatabase<{ task_id: string; net: string; consumes: string }>(
      database,
      `SELECT task_id, SUM(quota) AS net, SUM(CASE WHEN type = 'consume' THEN 1 ELSE 0 END) AS consumes FROM logs ` +
        `WHERE user_id = ${customer.userId} AND task_id IS NOT NULL GROUP BY task_id`,
    );
    const netOf = new Map(perTask.map((row) => [row.task_id, { net: Number(row.net), consumes: Number(row.consumes) }]));
    expect(acknowledged.length).toBeGreaterThanOrEqual(2);
    for (const id of acknowledged) expect({ id, ...netOf.get(id) }).toEqual({ id, net: -quotaOf.get(id)!, consumes: 1 });
    // A submit answered 503 whose write went through all the same was given back: it costs nothing.
    for (const [id, { net }] of netOf) if (!acknowledged.includes(id)) expect({ id, net }).toEqual({ id, net: 0 });
    const moved = [...netOf.values()].reduce((sum, row) => sum + row.net, 0);
    expect((await gateway.balance(customer.userId)).quota).toBe(openingBalance + moved);
  });
});
