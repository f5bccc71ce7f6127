import { TaskRetentionJob } from '../src/retention/task-retention.job';
import { RETRY_DELAYS_MS } from '../src/webhooks/webhook-retry-schedule';
import { TestGateway } from './support/gateway';
import { describeEachDatabase, queryDatabase } from './support/test-databases';
import { startWebhookGateway, WebhookGateway } from './support/webhook-gateway';
import { eventsFor, WebhookReceiver } from './support/webhook-receiver';

const RETENTION_MS = 10 * 60_000;
/** Past any retry's due time (the longest wait, plus its up to 10% spread). */
const PAST_LONGEST_RETRY_MS = Math.max(...RETRY_DELAYS_MS) * 1.2;

/**
 * TASK_RETENTION shorter than the webhook retry schedule: a task whose end is not yet published, or
 * whose webhook or callback is still being retried, stays (visible to its owner) until its
 * deliveries settle, delivered or given up; tasks with nothing pending go in the same round.
 */
describeEachDatabase('TASK_RETENTION waits for pending webhook deliveries', (kind) => {
  let hooks: WebhookGateway;
  let gw: TestGateway;
  let endpointTarget: WebhookReceiver;
  let callbackTarget: WebhookReceiver;
  let callbackCustomer: { key: string };
  let quiet: { key: string };

  beforeAll(async () => {
    hooks = await startWebhookGateway(kind, { TASK_RETENTION: '10m' });
    gw = hooks.gw;
    endpointTarget = await hooks.receiver();
    callbackTarget = await hooks.receiver();
    await hooks.as(hooks.customer.key).post('/v1/webhooks', { url: endpointTarget.url }).expect(201);
    callbackCustomer = await gw.createCustomer({ quota: 10_000_000 });
    await hooks.as(callbackCustomer.key).post('/v1/webhooks/callback-secret').expect(201);
    quiet = await gw.createCustomer({ quota: 10_000_000 });
  });
  afterAll(async () => {
    await hooks?.close();
  });

  const prune = () => gw.app.get(TaskRetentionJob).pruneNow();
  const statusOf = async (key: string, taskId: string) => (await hooks.as(key).get(`/v1/videos/${taskId}`)).status;
  const rowsOf = async (taskId: string) => {
    const [row] = await queryDatabase<{ n: number | string }>(
      gw.database,
      `SELECT (SELECT COUNT(*) FROM tasks WHERE task_id = '${taskId}') + (SELECT COUNT(*) FROM webhook_events WHERE task_id = '${taskId}') AS n`,
    );
    return Number(row.n);
  };

  it('keeps tasks with deliveries pending past the retention and deletes them once delivered or given up', async () => {
    endpointTarget.status = 500;
    callbackTarget.status = 500;
    // Failed tasks: no video to archive, so only their webhooks can hold them.
    const settled = await hooks.flatTask(quiet.key, {}, true);
    const retried = await hooks.flatTask(hooks.customer.key, {}, true);
    const calledBack = await hooks.flatTask(callbackCustomer.key, { callback_url: callbackTarget.url }, true);
    await hooks.finishTasks();
    await hooks.deliver(); // publishes the three ends (nobody to tell about the first); both attempts answer 500
    expect([eventsFor(endpointTarget, retried).length, eventsFor(callbackTarget, calledBack).length]).toEqual([1, 1]);
    const unpublished = await hooks.flatTask(quiet.key, {}, true);
    await hooks.finishTasks(); // ended; its end is not published yet

    gw.clock.advance(RETENTION_MS + 1000);
    // The three held are passed over, not claimed; the settled one goes in the same round.
    expect(await prune()).toBe(1);
    expect(await statusOf(quiet.key, settled)).toBe(404);
    expect(await rowsOf(settled)).toBe(0);
    expect(await statusOf(hooks.customer.key, retried)).toBe(200);
    expect(await statusOf(callbackCustomer.key, calledBack)).toBe(200);
    expect(await statusOf(quiet.key, unpublished)).toBe(200);

    // The endpoint is back: its retry delivers the same event.
    endpointTarget.status = 200;
    gw.clock.advance(PAST_LONGEST_RETRY_MS);
    await hooks.deliver(); // also publishes the last end (nobody to tell) and retries the callback (500 again)
    const atEndpoint = eventsFor(endpointTarget, retried);
    expect(atEndpoint).toHaveLength(2);
    expect(atEndpoint[1].headers['webhook-id']).toBe(atEndpoint[0].headers['webhook-id']);
    expect(await prune()).toBe(2);
    for (const [key, gone] of [
      [hooks.customer.key, retried],
      [quiet.key, unpublished],
    ]) {
      expect(await statusOf(key, gone)).toBe(404);
      expect(await rowsOf(gone)).toBe(0);
    }

    // The callback keeps failing: it stays until the schedule gives its event up (after its last retry).
    for (let attempt = 3; attempt <= RETRY_DELAYS_MS.length + 1; attempt++) {
      expect(await prune()).toBe(0);
      expect(await statusOf(callbackCustomer.key, calledBack)).toBe(200);
      gw.clock.advance(PAST_LONGEST_RETRY_MS);
      await hooks.deliver();
    }
    expect(eventsFor(callbackTarget, calledBack)).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(await prune()).toBe(1);
    expect(await statusOf(callbackCustomer.key, calledBack)).toBe(404);
    expect(await rowsOf(calledBack)).toBe(0);
  });
});
