import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { TestGateway } from './support/gateway';
import { GatewayBehindProxy, gatewayCaller, startGatewayBehindProxy, waitUntilHealthy } from './support/database-outage';
import { TcpProxy } from './support/tcp-proxy';
import { FreshDatabase, queryDatabase, describeOnMysql } from './support/test-databases';

/** A bounded answer, with room for a host so busy that a healthy query takes a second. */
const QUERY_TIMEOUT_MS = 2000;
/** Far above what a bounded answer needs, far below the old 20 s hang. */
const ANSWER_WITHIN_MS = 8000;

describeOnMysql('a MariaDB outage is a 503 with Retry-After, and the pool recovers without a restart', () => {
  let behind: GatewayBehindProxy;
  let database: FreshDatabase;
  let proxy: TcpProxy;
  let gateway: TestGateway;
  let beta: BetaEmulatorServer;
  let customer: { userId: number; key: string };
  let taskId: string;

  const call = gatewayCaller(() => ({ url: gateway.url, key: customer.key }), ANSWER_WITHIN_MS);

  /** Every surface a client or operator uses while the database is gone. */
  const calls = () => ({
    submitFlat: call('POST', '/v1/videos', { model: 'alpha/v5', prompt: 'during the outage' }),
    submitUnified: call('POST', '/v1/video/generations', { model: 'beta-1.0-t2v', prompt: 'during the outage' }),
    readFlat: call('GET', `/v1/videos/${taskId}`),
    readUnified: call('GET', `/v1/video/generations/${taskId}`),
    admin: call('GET', `/api/admin/users/${customer.userId}`),
    metrics: call('GET', '/metrics'),
    health: call('GET', '/health'),
  });

  async function expectAllUnavailable() {
    const answers = calls();
    for (const [name, pending] of Object.entries(answers)) {
      const answer = await pending;
      expect({ name, status: answer.status }).toEqual({ name, status: 503 });
      if (name === 'health') continue;
      expect({ name, retryAfter: answer.retryAfter }).toEqual({ name, retryAfter: expect.stringMatching(/^\d+$/) });
      if (name === 'submitUnified' || name === 'readUnified')
        expect(answer.body).toEqual({ code: 'service_unavailable', message: expect.any(String), data: null });
      else expect(answer.body.error).toMatchObject({ code: 'service_unavailable', type: 'server_error' });
    }
  }

  /** The pool reconnects on its own: within a few seconds every call works again. */
  async function expectRecovered() {
    await waitUntilHealthy(call);
    const answers = calls();
    expect((await answers.submitFlat).status).toBe(200);
    expect((await answers.submitUnified).status).toBe(200);
    expect((await answers.readFlat).status).toBe(200);
    expect((await answers.readUnified).status).toBe(200);
    expect((await answers.admin).status).toBe(200);
    expect((await answers.metrics).status).toBe(200);
  }

  beforeAll(async () => {
    behind = await startGatewayBehindProxy('mysql', { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) });
    ({ database, proxy, gateway } = behind);
    beta = await startBetaEmulator();
    await gateway.createChannel(betaChannelBody(beta));
    customer = await gateway.createCustomer({ quota: 1_000_000 });
    const first = await call('POST', '/v1/videos', { model: 'alpha/v5', prompt: 'before the outage' });
    expect(first.status).toBe(200);
    taskId = first.body.id;
  });

  afterAll(async () => {
    await behind?.close();
    await beta?.close();
  });

  it('answers 503 on every surface while MariaDB is unreachable, then serves again', async () => {
    await proxy.kill();
    await expectAllUnavailable();
    await proxy.restore();
    await expectRecovered();
  });

  it('answers 503 within a bounded time while MariaDB is frozen, then serves again', async () => {
    proxy.freeze();
    await expectAllUnavailable();
    proxy.thaw();
    await expectRecovered();
  });

  it('charged exactly the submits it acknowledged', async () => {
    const tasks = await queryDatabase<{ task_id: string; quota: string }>(
      database,
      `SELECT task_id, quota FROM tasks WHERE user_id = ${customer.userId}`,
    );
    const consumed = await queryDatabase<{ total: string; rows: number }>(
      database,
      `SELECT COALESCE(-SUM(quota), 0) AS total, COUNT(*) AS \`rows\` FROM logs WHERE user_id = ${customer.userId} AND type = 'consume'`,
    );
    const charged = tasks.reduce((sum, task) => sum + Number(task.quota), 0);
    expect(Number(consumed[0].rows)).toBe(tasks.length);
    expect(Number(consumed[0].total)).toBe(charged);
    expect((await gateway.balance(customer.userId)).quota).toBe(1_000_000 - charged);
    expect(tasks.length).toBe(5); // one before, two after each recovery
  });
});
