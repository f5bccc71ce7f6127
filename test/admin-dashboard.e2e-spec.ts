import { UpstreamCallRecorder } from '../src/upstream/upstream-call-recorder.service';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { describeEachDatabase } from './support/test-databases';

/** The admin dashboard over real tasks on the embedded simulator (and one channel that always fails). */
describeEachDatabase('admin dashboard', (kind) => {
  let gw: TestGateway;
  let broken: LoopbackServer;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    broken = await startLoopbackServer((_req, res) => {
      res.statusCode = 502;
      res.end('bad gateway');
    });
  });
  afterAll(async () => {
    await broken?.close();
    await gw?.close();
  });

  const submit = (key: string, prompt: string, expected: number) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(expected);

  it('checks the range and draws 24 hourly buckets by default, the last one partial and ending now', async () => {
    const bad = await gw.admin.get('/api/admin/dashboard?range=2h').expect(400);
    expect(JSON.stringify(bad.body)).toContain('range');
    // The clock runs in real time: `to` falls between the moments before and after the request.
    const before = Math.floor(gw.clock.now() / 1000);
    const body = (await gw.admin.get('/api/admin/dashboard').expect(200)).body;
    const after = Math.floor(gw.clock.now() / 1000);
    expect(body).toMatchObject({ range: '24h', bucket_seconds: 3600, currency: { code: 'USD', quota_per_unit: 10000 } });
    expect(body.to).toBeGreaterThanOrEqual(before);
    expect(body.to).toBeLessThanOrEqual(after);
    expect(body.buckets).toHaveLength(24);
    expect(body.buckets[23]).toBe(body.to - (body.to % 3600));
    expect(body.from).toBe(body.buckets[0]);
    expect(body.tasks_by_status).toMatchObject({ SUCCESS: new Array(24).fill(0), FAILURE: new Array(24).fill(0) });
    const hour = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
    expect(hour).toMatchObject({ range: '1h', bucket_seconds: 60 });
    expect(hour.buckets).toHaveLength(60);
    expect((await gw.admin.get('/api/admin/dashboard?range=7d').expect(200)).body.bucket_seconds).toBe(21600);
    expect((await gw.admin.get('/api/admin/dashboard?range=30d').expect(200)).body.buckets).toHaveLength(30);
    await gw.http.get('/api/admin/dashboard').expect(401);
  });

  it('counts tasks by status, money, refunds, outcomes by channel and model, upstream calls and errors, stuck tasks and stored bytes', async () => {
    const { key, userId } = await gw.createCustomer({ quota: 1_000_000 });
    // The broken channel outranks the simulator's: every submit tries it first, fails there, then goes on.
    const brokenId = await gw.createChannel({
      name: 'always-502',
      platform: 'alpha',
      base_url: broken.url,
      api_key: 'k',
      models: ['alpha/v6'],
      priority: 10,
    });
    const ok = await submit(key, 'a red kite over a hill', 200);
    const failing = await submit(key, 'a storm [simulate:fail]', 200);
    await submit(key, 'nope [simulate:reject]', 400);
    await gw.admin.patch(`/api/admin/channels/${brokenId}`, { status: 'disabled' }).expect(200);
    gw.clock.advance(7_000);
    await gw.sync();
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    const stuck = await submit(key, 'left waiting', 200);

    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body.data as Array<{
      task_id: string;
      quota: number;
      channel_id: number;
    }>;
    const quotaOf = (taskId: string) => tasks.find((task) => task.task_id === taskId)!.quota;
    const simulatorChannel = tasks.find((task) => task.task_id === ok.body.id)!.channel_id;
    const body = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
    const last = (series: number[]) => series[series.length - 1];
    const sum = (series: number[]) => series.reduce((a, b) => a + b, 0);
    expect(sum(body.tasks_by_status.SUCCESS)).toBe(1);
    expect(sum(body.tasks_by_status.FAILURE)).toBe(1);
    expect(sum(body.tasks_by_status.REJECTED)).toBe(1);
    expect(sum(body.tasks_by_status.NOT_START)).toBe(1);
    // Charged: the finished, the failed and the waiting task; the failed one's charge came back.
    expect(sum(body.quota_by_bucket)).toBe(quotaOf(ok.body.id) + quotaOf(stuck.body.id));
    expect(body.refunds).toMatchObject({ count: 1, quota: quotaOf(failing.body.id) });
    expect(last(body.refunds.by_bucket) + body.refunds.by_bucket[body.refunds.by_bucket.length - 2]).toBe(quotaOf(failing.body.id));

    expect(body.by_model).toEqual([
      {
        model: 'alpha/v6',
        total: 4,
        success: 1,
        failure: 1,
        cancelled: 0,
        rejected: 1,
        success_rate: 0.5,
        quota: quotaOf(ok.body.id) + quotaOf(stuck.body.id),
      },
    ]);
    // Beside the outcomes, what customers paid for the channel's tasks (the ledger's net), and what its provider
    // reported of its own cost: nothing, for family A.
    expect(body.by_channel).toContainEqual({
      channel_id: simulatorChannel,
      channel_name: expect.any(String),
      total: 4,
      success: 1,
      failure: 1,
      cancelled: 0,
      rejected: 1,
      success_rate: 0.5,
      net_charged: quotaOf(ok.body.id) + quotaOf(stuck.body.id),
      provider_usage: {},
      provider_usage_tasks: 0,
      provider_usd: null,
    });

    // Submits: 3 on the broken channel (all errors) and 4 on the simulator's (a refusal is an answer); 2 polls there.
    const upstream = new Map(body.upstream.map((row: { channel_id: number }) => [row.channel_id, row]));
    expect(upstream.get(brokenId)).toEqual({
      channel_id: brokenId,
      channel_name: 'always-502',
      calls: 3,
      errors: 3,
      error_rate: 1,
      latency_avg_ms: expect.any(Number),
      latency_p95_ms: expect.any(Number),
    });
    expect(upstream.get(simulatorChannel)).toMatchObject({ calls: 6, errors: 0, error_rate: 0, latency_p95_ms: expect.any(Number) });
    // Over time: the same 9 calls and 3 errors, in the buckets they fell in.
    expect(sum(body.upstream_by_bucket.calls)).toBe(9);
    expect(sum(body.upstream_by_bucket.errors)).toBe(3);
    body.upstream_by_bucket.calls.forEach((calls: number, i: number) =>
      expect(body.upstream_by_bucket.latency_avg_ms[i] === null).toBe(calls === 0),
    );

    const store = (await gw.admin.get('/api/admin/video-store').expect(200)).body;
    expect(body.video_store).toEqual({ kind: 'file', bytes: store.stored_bytes, objects: store.stored_objects });
    expect(body.video_store.bytes).toBeGreaterThan(0);
    expect(body.webhooks).toEqual({ failing_endpoints: 0, failed_deliveries: 0 });
    expect(body.stuck_tasks).toEqual({ count: 0, oldest_age_s: null });

    // Two minutes without a sync: the waiting task's poll is overdue, as the stuck list says.
    gw.clock.advance(120_000);
    const later = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
    const stuckList = (await gw.admin.get('/api/admin/tasks/stuck').expect(200)).body;
    expect(later.stuck_tasks).toEqual({ count: stuckList.total, oldest_age_s: expect.any(Number) });
    expect(later.stuck_tasks.count).toBe(1);
    expect(later.stuck_tasks.oldest_age_s).toBeGreaterThanOrEqual(120);
    await gw.sync();
  });

  it("counts a client's cancel apart: neither a failure of its channel nor of its model", async () => {
    const { key } = await gw.createCustomer({ quota: 1_000_000 });
    const auth = `Bearer ${key}`;
    const done = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'gen4.5', prompt: 'a kite', duration: 5 })
      .expect(200);
    const cancelled = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'gen4.5', prompt: 'a boat', duration: 5 })
      .expect(200);
    const res = await gw.http.post(`/v1/videos/${cancelled.body.id}/cancel`).set('Authorization', auth).expect(200);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    for (let i = 0; i < 20; i++) {
      gw.clock.advance(10_000);
      await gw.sync();
      const read = await gw.http.get(`/v1/videos/${done.body.id}`).set('Authorization', auth).expect(200);
      if (read.body.status === 'completed') break;
    }
    const body = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
    const sum = (series: number[]) => series.reduce((a, b) => a + b, 0);
    expect(sum(body.tasks_by_status.CANCELLED)).toBe(1);
    expect(body.by_model.find((row: { model: string }) => row.model === 'gen4.5')).toMatchObject({
      total: 2,
      success: 1,
      failure: 0,
      cancelled: 1,
      success_rate: 1,
    });
    const runwayChannel = body.by_channel.find((row: { channel_name: string | null }) => /runway/i.test(row.channel_name ?? ''));
    expect(runwayChannel).toMatchObject({ failure: 0, cancelled: 1, success_rate: 1 });
  });

  it("shows one instance's upstream calls on another instance's dashboard", async () => {
    const { key } = await gw.createCustomer({ quota: 1_000_000 });
    const before = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
    const calls = (body: { upstream: Array<{ calls: number }> }) => body.upstream.reduce((total, row) => total + row.calls, 0);
    await submit(key, 'a second instance is watching', 200);
    await gw.app.get(UpstreamCallRecorder).flush();
    const other = await startGateway(kind, { SIMULATOR: 'off' }, gw.database);
    try {
      other.clock.advance(gw.clock.now() - other.clock.now());
      const seen = (await other.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
      expect(calls(seen)).toBe(calls(before) + 1);
    } finally {
      await other.close();
    }
  });
});
