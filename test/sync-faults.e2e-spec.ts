import { AlphaApiClient } from '../src/families/alpha/alpha-api.client';
import { TaskLeaseRepository } from '../src/tasks/repositories/task-lease.repository';
import { AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/** alpha/v5 720p 5 s: 60 credits. */
const PRICE = 6000;
const TIMEOUT_MS = 3 * 3600_000;

describeEachDatabase('task sync: upstream faults, timeouts, leases, metrics', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind, { TASK_TIMEOUT_MS: String(TIMEOUT_MS) });
    // Polls that hang must give up quickly in this test.
    gw.app.get(AlphaApiClient).timeouts.queryMs = 300;
    await gw.createChannel({ name: 'alpha', platform: 'alpha', base_url: fake.url, api_key: fake.apiKey, models: ['alpha/v5'] });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });
  afterEach(() => fake.clearFaults());

  const submit = async (key: string, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: `scene ${i}` })
        .expect(200);
      ids.push(res.body.id);
    }
    return ids;
  };
  const statusOf = async (key: string, id: string) =>
    (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
  const round = async (ms: number) => {
    gw.clock.advance(ms);
    await gw.sync();
  };
  const refundsOf = async (userId: number) => (await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=refund`).expect(200)).body;

  it.each([
    ['HTTP 500', { http: 500 }],
    ['timeouts', { hang: true as const }],
    ['unparseable bodies', { garbage: true as const }],
    ['system busy (ErrCode 500069)', { errCode: 500069 }],
  ])('rides out %s with back-off, then completes every task without a refund', async (_label, fault) => {
    const { userId, key } = await gw.createCustomer({ quota: 10 * PRICE });
    fake.defaultScript = finishAfter(1);
    const ids = await submit(key, 3);
    fake.inject('result', fault);
    for (let i = 0; i < 4; i++) await round(4000 * 2 ** i);
    for (const id of ids) expect((await statusOf(key, id)).status).toBe('queued');
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body.data;
    // Back-off: consecutive failures are counted and the next poll moves further out.
    for (const task of tasks) {
      expect(task.poll_failures).toBeGreaterThanOrEqual(2);
      expect(task.next_poll_at).toBeGreaterThan(Math.floor(gw.clock.now() / 1000));
    }
    expect(await gw.balance(userId)).toEqual({ quota: 7 * PRICE, used_quota: 3 * PRICE });

    fake.clearFaults();
    for (let i = 0; i < 3; i++) await round(300_000);
    for (const id of ids) expect((await statusOf(key, id)).status).toBe('completed');
    expect((await refundsOf(userId)).total).toBe(0);
    expect(await gw.balance(userId)).toEqual({ quota: 7 * PRICE, used_quota: 3 * PRICE });
    fake.defaultScript = [5, 1];
  });

  it('fails a task that never finishes with `upstream timeout` and refunds it exactly once', async () => {
    const { userId, key } = await gw.createCustomer({ quota: PRICE });
    fake.scriptNext([5]);
    const [id] = await submit(key, 1);
    await round(4000);
    expect((await statusOf(key, id)).status).not.toBe('failed');
    await round(TIMEOUT_MS);
    await round(4000);
    const failed = await statusOf(key, id);
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'upstream timeout' } });
    await round(4000);
    const refunds = await refundsOf(userId);
    expect(refunds.total).toBe(1);
    expect(refunds.data[0]).toMatchObject({ task_id: id, quota: PRICE, detail: expect.stringContaining('upstream timeout') });
    expect(await gw.balance(userId)).toEqual({ quota: PRICE, used_quota: 0 });
  });

  it('leaves a task leased by another (dead) instance alone until the lease runs out, then takes it over', async () => {
    const { key } = await gw.createCustomer({ quota: PRICE });
    fake.scriptNext([1]);
    const [id] = await submit(key, 1);
    const repository = gw.app.get(TaskLeaseRepository);
    const now = gw.clock.now() + 4000;
    const stolen = await repository.claimDueTasks('dead-instance#1', now, now + 60_000, 10);
    expect(stolen.map((task) => task.taskId)).toContain(id);
    const pollsBefore = fake.calls('result').length;
    await round(30_000);
    expect(fake.calls('result').length).toBe(pollsBefore);
    expect((await statusOf(key, id)).status).toBe('queued');
    await round(40_000);
    expect((await statusOf(key, id)).status).toBe('completed');
  });

  it('lists stuck tasks for operators and exposes Prometheus metrics', async () => {
    const { key } = await gw.createCustomer({ quota: PRICE });
    fake.scriptNext([5]);
    const [id] = await submit(key, 1);
    gw.clock.advance(5 * 60_000); // due for minutes, no sync ran
    const stuck = (await gw.admin.get('/api/admin/tasks/stuck').expect(200)).body;
    expect(stuck.data.map((task: { task_id: string }) => task.task_id)).toContain(id);
    expect(stuck.data[0].stuck).toBe(true);

    const metrics = await gw.http.get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/text\/plain/);
    expect(metrics.text).toMatch(/gateway_tasks\{status="NOT_START"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_task_sync_lag_seconds (2\d\d|[3-9]\d\d)/);
    expect(metrics.text).toMatch(/gateway_task_polls_total\{family="alpha",channel="\d+",outcome="error"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_upstream_errors_total\{family="alpha",channel="\d+",operation="poll",kind="transient"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_refunds_total\{family="alpha",cause="timeout"\} 1/);
    // the runner's own metrics, per job
    expect(metrics.text).toMatch(/gateway_job_lag_seconds\{job="task-sync"\} (2\d\d|[3-9]\d\d)/);
    expect(metrics.text).toMatch(/gateway_job_lag_seconds\{job="asset-follow-up"\} 0/);
    expect(metrics.text).toMatch(/gateway_job_rounds_total\{job="task-sync",outcome="ok"\} [1-9]/);
    expect(metrics.text).toMatch(/gateway_job_items_total\{job="task-sync",outcome="error"\} [1-9]/);
    await round(4000);
    expect((await gw.http.get('/metrics').expect(200)).text).toMatch(/gateway_task_sync_lag_seconds 0/);
  });
});
