import OpenAI from 'openai';
import { AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { databaseKinds, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';
import { until } from './support/until';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

async function call(gateway: GatewayProcess, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The outbox survives a crash: a task's end, marked by the move that ended it, is published and delivered by the next process. */
describe('webhooks across a kill -9', () => {
  let fake: AlphaEmulatorServer;
  let receiver: WebhookReceiver;
  const started: GatewayProcess[] = [];
  const databases: FreshDatabase[] = [];

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    for (const gateway of started.splice(0)) await gateway.crash();
    for (const database of databases.splice(0)) await database.drop();
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await fake?.close();
    await receiver?.stop();
  });

  for (const kind of databaseKinds()) {
    it(`[${kind}] a task that ended right before kill -9 is still told to the endpoint after the restart, once`, async () => {
      const database = await freshDatabase(kind);
      databases.push(database);
      const env = { DATABASE_URL: database.url, ADMIN_TOKEN, TASK_SYNC_INTERVAL_MS: '100', MEDIA_ALLOW_PRIVATE_HOSTS: 'true' };
      // The first process ends tasks but never delivers: the kill comes after the task's end and before any attempt.
      const first = await startGatewayProcess({ ...env, WEBHOOK_DELIVERY_INTERVAL_MS: '0' });
      started.push(first);
      await call(first, ADMIN_TOKEN, 'POST', '/api/admin/channels', {
        name: 'alpha',
        platform: 'alpha',
        base_url: fake.url,
        api_key: fake.apiKey,
        models: ['alpha/v6'],
        settings: { poll_interval_ms: 400 },
      });
      const user = await call(first, ADMIN_TOKEN, 'POST', '/api/admin/users', { username: 'hooked', quota: 1_000_000 });
      const { key } = await call(first, ADMIN_TOKEN, 'POST', `/api/admin/users/${user.id}/keys`, { name: 'k' });
      const endpoint = await call(first, key, 'POST', '/v1/webhooks', { url: receiver.url });
      fake.scriptNext([1]);
      const task = await call(first, key, 'POST', '/v1/videos', {
        model: 'alpha/v6',
        prompt: 'crash test',
        duration: 5,
        resolution: '720P',
      });

      // Completed for its customer: done at the provider, its video stored and settled.
      await until(
        'the task to complete',
        async () =>
          (
            await queryDatabase<{ status: string; settled_at: unknown }>(
              database,
              `SELECT status, settled_at FROM tasks WHERE task_id = '${task.id}'`,
            )
          )[0]?.settled_at != null,
      );
      await first.crash();
      started.splice(started.indexOf(first), 1);
      expect(receiver.received).toHaveLength(0);
      // The end is in the outbox (written with the move that ended it), not yet published or sent.
      const marked = await queryDatabase(
        database,
        `SELECT o.task_row_id FROM webhook_outbox o JOIN tasks t ON t.id = o.task_row_id WHERE t.task_id = '${task.id}'`,
      );
      expect(marked).toHaveLength(1);

      const second = await startGatewayProcess({ ...env, WEBHOOK_DELIVERY_INTERVAL_MS: '200' });
      started.push(second);
      const [event] = await until('the event', () => receiver.received, { done: (received) => received.length > 0 });
      expect(event.json).toMatchObject({ object: 'event', type: 'video.completed', data: { id: task.id, status: 'completed' } });
      await new OpenAI({ apiKey: 'unused' }).webhooks.verifySignature(event.body, receiver.headersOf(event), endpoint.secret);
      await until(
        'the attempt to be recorded',
        async () => (await call(second, key, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`)).data[0]?.status_code === 200,
      );
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(receiver.received).toHaveLength(1);
    }, 120_000);
  }
});
