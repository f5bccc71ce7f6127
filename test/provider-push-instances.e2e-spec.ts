import { randomBytes } from 'node:crypto';
import { startGateway, TestGateway } from './support/gateway';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { databaseKinds, DatabaseKind, FreshDatabase, freshDatabase } from './support/test-databases';
import { until } from './support/until';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LONG_POLL_MS = 600_000;
const KINDS = databaseKinds().filter((kind): kind is Exclude<DatabaseKind, 'sqlite'> => kind !== 'sqlite');

/**
 * Two gateway instances on one database (MariaDB, PostgreSQL) and one Redis: a provider's callback
 * lands on either of them (here: on both, as a provider that calls back twice, and on the instance
 * that did not submit), and the task ends once, read once, charged once.
 */
(KINDS.length ? describe.each(KINDS) : describe.skip.each(['mysql']))('providers that push, two instances [%s]', (kind) => {
  let database: FreshDatabase;
  let fake: KlingEmulatorServer;
  const gateways: TestGateway[] = [];
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    database = await freshDatabase(kind as DatabaseKind);
    fake = await startKlingEmulator();
    fake.callbacks.enabled = false;
    // One Redis shared with other runs: a key prefix of this run's own.
    const env = {
      TASK_SYNC_INTERVAL_MS: '200',
      PROVIDER_PUSH_POLL_MS: String(LONG_POLL_MS),
      PUBLIC_BASE_URL: 'http://127.0.0.1:1',
      REDIS_URL,
      REDIS_KEY_PREFIX: `push-${randomBytes(4).toString('hex')}:`,
      SERVER_SECRET: 'push-instances-secret-0123456789abcdef',
    };
    for (let i = 0; i < 2; i++) gateways.push(await startGateway(kind as DatabaseKind, env, database));
    // Each instance names itself in its callback URLs.
    for (const gw of gateways) gw.config.publicBaseUrl = gw.url;
    await gateways[0].createChannel({
      name: 'kling-push',
      platform: 'kling',
      base_url: fake.url,
      api_key: fake.apiKey,
      models: ['kling-v2-5-turbo'],
      settings: { poll_interval_ms: LONG_POLL_MS },
    });
    customer = await gateways[0].createCustomer({ quota: 1_000_000 });
  }, 120_000);

  afterAll(async () => {
    for (const gw of gateways) await gw.app.close();
    await fake?.close();
    await database?.drop();
  });

  it('a callback on either instance, or on both at once, ends the task once with one provider read', async () => {
    const before = await gateways[0].balance(customer.userId);
    let charged = 0;
    for (let round = 0; round < 4; round++) {
      fake.scriptNext(['succeed']);
      const submitted = await gateways[round % 2].http
        .post('/v1/video/generations')
        .set('Authorization', `Bearer ${customer.key}`)
        .send({ model: 'kling-v2-5-turbo', prompt: 'a fox', seconds: '5', size: '1280x720' })
        .expect(200);
      const taskId = submitted.body.task_id as string;
      const create = fake.requests.filter((req) => req.method === 'POST').at(-1)!;
      const callbackUrl = (create.json as { callback_url: string }).callback_url;
      const { upstream_task_id: upstreamId } = await until('the provider id is stored', async () => {
        const task = (await gateways[0].admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
        return task.upstream_task_id ? task : null;
      });
      const path = new URL(callbackUrl).pathname;
      const body = JSON.stringify({ task_id: upstreamId, task_status: 'succeed' });
      // Rounds 0 and 1: on the other instance than the one that submitted; 2 and 3: on both at once (a provider calling back twice).
      const targets = round < 2 ? [gateways[(round + 1) % 2]] : gateways;
      const answers = await Promise.all(
        targets.map((gw) => fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(targets.map(() => 200));
      const done = await until(
        `task ${taskId} ends`,
        async () => {
          const task = (await gateways[round % 2].admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
          return task.status === 'SUCCESS' ? task : null;
        },
        { timeoutMs: 20_000 },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const reads = fake.requests.filter((req) => req.method === 'GET' && req.path.endsWith(`/${upstreamId}`)).length;
      process.stdout.write(`[push ${kind} two instances] round ${round}: provider reads ${reads}\n`);
      expect(reads).toBe(1);
      charged += done.quota as number;
      expect((await gateways[1].admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body).toMatchObject({
        status: 'SUCCESS',
        quota: done.quota,
      });
    }
    const after = await gateways[0].balance(customer.userId);
    // Each task charged once, none refunded.
    expect(charged).toBeGreaterThan(0);
    expect(before.quota - after.quota).toBe(charged);
  });
});
