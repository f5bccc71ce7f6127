import { LateCompletionWatch } from '../src/tasks/deadline/late-completion-watch';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';
import { startXaiEmulator, XaiEmulatorServer } from './support/xai-emulator';

const QUOTA = 10_000_000;
const MINUTE = 60_000;
const TIMEOUT_MS = 20 * MINUTE;
const RUNWAY_TASK = { model: 'gen4.5', prompt: 'waves', seconds: '6', size: '720x1280' };
const XAI_TASK = { model: 'grok-imagine-video', prompt: 'a storm over the sea', seconds: '5' };

/**
 * TASK_TIMEOUT_MS reads the provider before the gateway gives a task up (contract, "The deadline
 * reads the provider"): Runway has a cancel, xAI has none. What the customer sees (status, balance,
 * refunds), what the provider is sent, and what the operator learns of a task that ended late.
 */
describeEachDatabase('task deadline', (kind) => {
  let gw: TestGateway;
  let runway: RunwayEmulatorServer;
  let xai: XaiEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    runway = await startRunwayEmulator();
    xai = await startXaiEmulator();
    gw = await startGateway(kind, { TASK_TIMEOUT_MS: String(TIMEOUT_MS) });
    // Two Runway channels: a provider's own failure could be sent to the other one (it is not, past the deadline).
    for (const name of ['runway-a', 'runway-b'])
      await gw.createChannel({ name, platform: 'runway', base_url: runway.url, api_key: runway.apiKey, models: ['gen4.5'] });
    await gw.createChannel({ name: 'xai', platform: 'xai', base_url: xai.url, api_key: xai.apiKey, models: ['grok-imagine-video'] });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await runway?.close();
    await xai?.close();
  });

  const as = () => ({
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`),
    post: (path: string) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`),
  });
  const submit = async (body: object) => (await as().post('/v1/videos').send(body).expect(200)).body.id as string;
  const flatOf = async (taskId: string) => (await as().get(`/v1/videos/${taskId}`).expect(200)).body;
  const detailOf = async (taskId: string) => (await gw.admin.get(`/api/admin/tasks/${taskId}`).expect(200)).body;
  const ledgerOf = async (taskId: string) =>
    ((await gw.admin.get(`/api/admin/logs?task_id=${taskId}`).expect(200)).body.data as Array<{ type: string; quota: number }>)
      .map((row) => row.type)
      .sort();
  const refundsOf = async (taskId: string) => (await gw.admin.get(`/api/admin/logs?task_id=${taskId}&type=refund`).expect(200)).body.data;
  const lateCompletionsOnDashboard = async () => (await gw.admin.get('/api/admin/dashboard').expect(200)).body.late_completions;
  const pollRound = async (ms = 10_000) => {
    gw.clock.advance(ms);
    await gw.sync();
  };
  const pastDeadline = () => pollRound(TIMEOUT_MS);
  const watchLate = () => gw.app.get(LateCompletionWatch).watchNow();
  const queriesOfXai = (upstreamId: string) =>
    xai.requests.filter((r) => r.method === 'GET' && r.path === `/v1/videos/${upstreamId}`).length;
  const queriesOfRunway = (upstreamId: string) =>
    runway.requests.filter((r) => r.method === 'GET' && r.path === `/v1/tasks/${upstreamId}`).length;

  /** A Runway task its provider runs, and the gateway has seen running. */
  async function runningOnRunway(): Promise<{ taskId: string; upstreamId: string }> {
    runway.scriptNext(['RUNNING']);
    const taskId = await submit(RUNWAY_TASK);
    await pollRound();
    expect((await flatOf(taskId)).status).toBe('in_progress');
    return { taskId, upstreamId: runway.taskIds().at(-1)! };
  }

  it('finished at the provider but not yet polled when the deadline passes: it completes and is charged once, and no cancel is sent', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await runningOnRunway();
    await runway.finish(upstreamId);

    await pastDeadline();
    expect(await flatOf(taskId)).toMatchObject({ status: 'completed', progress: 100 });
    expect(runway.deletes()).toHaveLength(0);
    expect(await runway.hasTask(upstreamId)).toBe(true);
    expect(await ledgerOf(taskId)).toEqual(['consume']);
    const after = await gw.balance(customer.userId);
    expect(after.used_quota).toBeGreaterThan(before.used_quota);
    expect(before.quota - after.quota).toBe(after.used_quota - before.used_quota);
    await as().get(`/v1/videos/${taskId}/content`).expect(200);
  });

  it('still running on a family with a cancel: the provider is sent the cancel, the task fails `upstream timeout`, refunded exactly once', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await runningOnRunway();
    expect((await gw.balance(customer.userId)).quota).toBeLessThan(before.quota);

    await pastDeadline();
    expect(runway.deletes().map((request) => request.path)).toEqual([`/v1/tasks/${upstreamId}`]);
    expect(await flatOf(taskId)).toMatchObject({ status: 'failed', error: { code: 'upstream_timeout', message: 'upstream timeout' } });
    expect(await refundsOf(taskId)).toEqual([expect.objectContaining({ detail: `refund: task ${taskId} failed: upstream timeout` })]);
    expect(await gw.balance(customer.userId)).toEqual(before);

    // Cancelled: nothing left to learn, the provider is not read again.
    const queries = queriesOfRunway(upstreamId);
    gw.clock.advance(11 * MINUTE);
    await watchLate();
    await pollRound();
    expect(queriesOfRunway(upstreamId)).toBe(queries);
    expect((await detailOf(taskId)).late_completion).toBeNull();
    expect(await refundsOf(taskId)).toHaveLength(1);
  });

  it('failed at the provider for its own reason when the deadline passes: it fails as the provider says, refunded, never sent to another channel', async () => {
    const before = await gw.balance(customer.userId);
    const { taskId, upstreamId } = await runningOnRunway();
    const submits = runway.submits().length;
    await runway.finish(upstreamId, { status: 'FAILED', failureCode: 'INTERNAL' });

    await pastDeadline();
    await pollRound();
    expect((await flatOf(taskId)).error).toMatchObject({ code: 'generation_failed', message: expect.stringContaining('INTERNAL') });
    expect(runway.submits()).toHaveLength(submits);
    expect(runway.deletes().filter((request) => request.path.endsWith(upstreamId))).toHaveLength(0);
    expect(await ledgerOf(taskId)).toEqual(['consume', 'refund']);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('still running on a family without a cancel (xAI): refunded at the deadline; its later end is kept for the operator, and the customer stays refunded', async () => {
    const before = await gw.balance(customer.userId);
    const lateBefore = await lateCompletionsOnDashboard();
    // Its queries: the first poll, the deadline's read, then (10 minutes after the deadline) done.
    xai.scriptNext(['pending', 'pending', 'done']);
    const taskId = await submit(XAI_TASK);
    await pollRound();
    expect((await flatOf(taskId)).status).toBe('in_progress');
    const upstreamId = (await detailOf(taskId)).upstream_task_id as string;

    await pastDeadline();
    expect(await flatOf(taskId)).toMatchObject({ status: 'failed', error: { code: 'upstream_timeout', message: 'upstream timeout' } });
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await refundsOf(taskId)).toHaveLength(1);
    expect((await detailOf(taskId)).late_completion).toBeNull();
    const queries = queriesOfXai(upstreamId);

    // Read no sooner than 10 minutes after the deadline.
    gw.clock.advance(5 * MINUTE);
    await watchLate();
    await gw.sync();
    expect(queriesOfXai(upstreamId)).toBe(queries);

    gw.clock.advance(6 * MINUTE);
    const readFrom = Math.floor(gw.clock.now() / 1000);
    await watchLate();
    const readBy = Math.floor(gw.clock.now() / 1000);
    expect(queriesOfXai(upstreamId)).toBe(queries + 1);
    const detail = await detailOf(taskId);
    expect(detail.late_completion.at).toBeGreaterThanOrEqual(readFrom);
    expect(detail.late_completion.at).toBeLessThanOrEqual(readBy);
    expect(detail.late_completion).toEqual({
      at: expect.any(Number),
      state: 'succeeded',
      provider_usage: { unit: 'usd_ticks', amount: expect.any(Number), usd_estimate: expect.any(Number) },
      provider_cost_usd: expect.any(Number),
    });
    expect(detail.late_completion.provider_usage.amount).toBeGreaterThan(0);
    // What xAI billed for it is the operator's cost, in the margin: the customer paid nothing for it.
    const cost = detail.late_completion.provider_cost_usd as number;
    expect(cost).toBeGreaterThan(0);
    expect(cost).toBe(detail.late_completion.provider_usage.usd_estimate);
    const mine = ((await gw.admin.get('/api/admin/usage?group_by=user').expect(200)).body.data as Array<Record<string, number>>).find(
      (row) => row.key === customer.userId,
    );
    expect(mine).toMatchObject({ provider_cost_usd: expect.any(Number), margin_usd: expect.any(Number) });
    expect(mine!.provider_cost_usd).toBeGreaterThanOrEqual(cost);
    expect(detail).toMatchObject({ status: 'FAILURE', failure_reason: 'upstream timeout', has_video: false });
    expect(await lateCompletionsOnDashboard()).toBe(lateBefore + 1);
    const metrics = (await gw.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^gateway_late_completions_total\{platform="xai"\} 1$/m);

    // The customer's task stays failed and refunded: no second refund, no charge, no more reads.
    expect(await flatOf(taskId)).toMatchObject({ status: 'failed', error: { code: 'upstream_timeout' } });
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(await ledgerOf(taskId)).toEqual(['consume', 'refund']);
    gw.clock.advance(30 * MINUTE);
    await watchLate();
    await gw.sync();
    expect(queriesOfXai(upstreamId)).toBe(queries + 1);
    expect(await refundsOf(taskId)).toHaveLength(1);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });
});
