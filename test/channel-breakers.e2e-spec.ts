import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite, queryDatabase } from './support/test-databases';

const QUOTA = 100_000_000;
const FAILURES = 5;
const COOLDOWN_S = 30;

/**
 * Routing by health on one gateway (the breaker's moves need no second database: the shared one is
 * several-instances-breakers): one of a model's two channels answers every submit 500. Every channel open (503,
 * Retry-After) and a maybe-accepted submit kept off the other channel are proven in test/medium/channel-breakers.
 */
describeOnSqlite('channel breakers', (kind) => {
  let gw: TestGateway;
  let failing: AlphaEmulatorServer;
  let healthy: AlphaEmulatorServer;
  let failingId: number;
  let healthyId: number;

  beforeAll(async () => {
    [failing, healthy] = await Promise.all([startAlphaEmulator(), startAlphaEmulator({ apiKey: 'healthy-key' })]);
    gw = await startGateway(kind);
    // The failing channel outranks the healthy one: every submit would try it first.
    failingId = await gw.createChannel(alphaChannelBody(failing, { name: 'failing', priority: 10 }));
    healthyId = await gw.createChannel(alphaChannelBody(healthy, { name: 'healthy', priority: 0 }));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([failing?.close(), healthy?.close()]);
  });

  const breakerOf = async (id: number) => (await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.breaker;
  const metric = async (id: number) => {
    const text = (await gw.http.get('/metrics').expect(200)).text;
    return Number(new RegExp(`^gateway_channel_breaker_state\\{channel="${id}"\\} (\\d)$`, 'm').exec(text)?.[1]);
  };

  it('200 submits: no client failure, one charge each; the failing channel gets at most failures + 1 submits per cool-down; healed, it serves within one cool-down', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    failing.inject('generate', { http: 500 });
    const statuses: number[] = [];
    /** Submits that reached the failing channel, per cool-down (a window starts each time the breaker opens). */
    const perCooldown: number[] = [0];
    let openedAt: number | null = null;
    for (let i = 0; i < 200; i++) {
      const before = failing.calls('generate').length;
      const res = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: 'alpha/v5', prompt: `kite ${i}` });
      statuses.push(res.status);
      perCooldown[perCooldown.length - 1] += failing.calls('generate').length - before;
      const breaker = await breakerOf(failingId);
      if (breaker.opened_at !== null && breaker.opened_at !== openedAt) {
        if (openedAt !== null) perCooldown.push(0);
        openedAt = breaker.opened_at;
      }
      // 200 submits over about a minute: the first cool-down ends, its trial fails, the second (60 s) runs on.
      gw.clock.advance(300);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(perCooldown).toEqual([FAILURES + 1, 0]);
    expect(Math.max(...perCooldown)).toBeLessThanOrEqual(FAILURES + 1);

    const charges = await queryDatabase<{ task_id: string; n: number | string }>(
      gw.database,
      `SELECT task_id, COUNT(*) AS n FROM logs WHERE user_id = ${userId} AND type = 'consume' GROUP BY task_id`,
    );
    expect(charges).toHaveLength(200);
    expect(charges.every((row) => Number(row.n) === 1)).toBe(true);
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}&page_size=200`).expect(200)).body;
    expect(tasks.total).toBe(200);
    expect(tasks.data.every((task: { channel_id: number }) => task.channel_id === healthyId)).toBe(true);
    const balance = await gw.balance(userId);
    expect(balance.quota + balance.used_quota).toBe(QUOTA);

    const open = await breakerOf(failingId);
    expect(open).toMatchObject({ state: 'open', failures: FAILURES + 1 });
    // Unix seconds: opened_at rounded down, retry_at up.
    expect(open.retry_at - open.opened_at).toBeGreaterThanOrEqual(2 * COOLDOWN_S);
    expect(open.retry_at - open.opened_at).toBeLessThanOrEqual(2 * COOLDOWN_S + 1);
    expect(await metric(failingId)).toBe(2);
    expect(await metric(healthyId)).toBe(0);

    // Healed: it serves again once its cool-down ends, at the latest.
    failing.clearFaults();
    gw.clock.advance(Math.max(0, open.retry_at * 1000 - gw.clock.now()));
    expect(await metric(failingId)).toBe(1);
    const trial = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v5', prompt: 'healed' });
    expect(trial.status).toBe(200);
    const detail = (await gw.admin.get(`/api/admin/tasks/${trial.body.id}`).expect(200)).body;
    expect(detail.channel_id).toBe(failingId);
    expect(await breakerOf(failingId)).toEqual({ state: 'closed', failures: 0, opened_at: null, retry_at: null });
    expect(await metric(failingId)).toBe(0);
  });

  it('the admin task detail shows each attempt naming its channel, then the channel that took the task', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    failing.inject('generate', { http: 500 }, 1);
    const res = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
    const detail = (await gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
    const entries = detail.timeline.filter((entry: { kind: string }) => entry.kind === 'attempt' || entry.kind === 'submitted');
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'attempt',
        detail: `channel #${failingId} (failing) failed: transient: HTTP 500`,
        detail_code: 'attempt_failed',
      }),
      expect.objectContaining({ kind: 'submitted', detail: `channel #${healthyId} (healthy)`, detail_code: 'submitted_on' }),
    ]);
    expect(await breakerOf(failingId)).toMatchObject({ state: 'closed', failures: 1 });
  });

  it('an open breaker shows in the channel list and the dashboard, and closes by hand', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    await gw.admin.post(`/api/admin/channels/${failingId}/breaker/close`).expect(200);
    failing.inject('generate', { http: 500 });
    try {
      for (let i = 0; i < FAILURES; i++)
        await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
      const listed = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find((c: { id: number }) => c.id === failingId);
      expect(listed.breaker).toMatchObject({
        state: 'open',
        failures: FAILURES,
        opened_at: expect.any(Number),
        retry_at: expect.any(Number),
      });
      const dashboard = (await gw.admin.get('/api/admin/dashboard?range=1h').expect(200)).body;
      expect(dashboard.breakers).toEqual([
        {
          channel_id: failingId,
          channel_name: 'failing',
          state: 'open',
          failures: FAILURES,
          opened_at: listed.breaker.opened_at,
          retry_at: listed.breaker.retry_at,
        },
      ]);

      const before = failing.calls('generate').length;
      const closed = await gw.admin.post(`/api/admin/channels/${failingId}/breaker/close`).expect(200);
      expect(closed.body).toMatchObject({ id: failingId, breaker: { state: 'closed', failures: 0, opened_at: null, retry_at: null } });
      await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
      expect(failing.calls('generate').length).toBe(before + 1);
      await gw.admin.post('/api/admin/channels/999999/breaker/close').expect(404);
      await gw.http.post(`/api/admin/channels/${failingId}/breaker/close`).expect(401);
    } finally {
      failing.clearFaults();
      await gw.admin.post(`/api/admin/channels/${failingId}/breaker/close`).expect(200);
    }
  });
});
