import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/** The console's task drawer: both API forms, the money, the timeline, and what each audience may see. */
describeEachDatabase('console task detail', (kind) => {
  let gw: TestGateway;
  let counter = 0;

  async function signIn(body: object) {
    const res = await gw.http.post('/console/api/session').send(body).expect(200);
    const cookie = String(res.headers['set-cookie'][0]).split(';')[0];
    return { get: (path: string) => gw.http.get(path).set('Cookie', cookie) };
  }

  async function customer(quota: number) {
    const username = `td_${kind}_${++counter}`;
    const { body } = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota }).expect(201);
    const key = await gw.admin.post(`/api/admin/users/${body.id}/keys`, { name: 'k' }).expect(201);
    return { id: body.id as number, username, key: key.body.key as string, client: await signIn({ username, password: 'pass-word-1' }) };
  }

  const submit = (key: string, prompt: string) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(200);

  /** A signed link's own expiry differs per rendering: compare where each points (and the flat form's expires_at, that link's expiry). */
  const withoutLinkExpiry = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value)
        .replace(/\?expires=\d+&signature=[0-9a-f]{64}/g, '')
        .replace(/"expires_at":\d+/g, '"expires_at":"signed"'),
    );

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => gw?.close());

  it("shows a customer both forms of their task, its charge, its timeline and polls, never the channel or the provider's id", async () => {
    const { key, client } = await customer(100_000);
    const ok = await submit(key, 'a lighthouse at dusk, slow pan');
    gw.clock.advance(3_000);
    await gw.sync();
    gw.clock.advance(4_000);
    await gw.sync();
    await gw.app.get(VideoArchiveJob).archiveDueVideos();

    const detail = (await client.get(`/console/api/tasks/${ok.body.id}`).expect(200)).body;
    const flat = (await gw.http.get(`/v1/videos/${ok.body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    const unified = (await gw.http.get(`/v1/video/generations/${ok.body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    expect(flat.status).toBe('completed');
    expect(withoutLinkExpiry(detail.flat)).toEqual(withoutLinkExpiry(flat));
    expect(withoutLinkExpiry(detail.unified)).toEqual(withoutLinkExpiry(unified));

    const charge = (await gw.admin.get(`/api/admin/logs?task_id=${ok.body.id}&type=consume`).expect(200)).body.data[0];
    expect(detail).toMatchObject({
      task_id: ok.body.id,
      status: 'completed',
      progress: 100,
      model: 'alpha/v6',
      prompt: 'a lighthouse at dusk, slow pan',
      failure_reason: null,
      thumbnail: true,
      charge: { quota: -charge.quota, log_id: charge.id },
      refund: null,
      polls: { count: 2, first_at: expect.any(Number), last_at: expect.any(Number) },
    });
    expect(detail.charge.type).toBeUndefined();
    const kinds = detail.timeline.map((entry: { kind: string }) => entry.kind);
    expect(kinds).toEqual(expect.arrayContaining(['created', 'submitted', 'charged', 'poll', 'status', 'archived']));
    expect(kinds.indexOf('created')).toBe(0);
    expect(kinds.indexOf('poll')).toBeLessThan(kinds.lastIndexOf('status'));
    expect(detail.timeline).toContainEqual({ at: expect.any(Number), kind: 'status', status: 'completed', progress: 100 });
    const times = detail.timeline.map((entry: { at: number }) => entry.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Only flat statuses, and nothing of the channel or the provider's id.
    for (const entry of detail.timeline)
      if (entry.status && entry.kind !== 'webhook') expect(['queued', 'in_progress', 'completed', 'failed']).toContain(entry.status);
    const admin = (await gw.admin.get(`/api/admin/tasks/${ok.body.id}`).expect(200)).body;
    expect(admin.upstream_task_id).toEqual(expect.any(String));
    // Outside the API's own forms (which the customer gets from the API anyway), no channel and no provider id.
    expect(JSON.stringify({ ...detail, flat: null, unified: null })).not.toMatch(/channel|upstream/);
    expect(detail).not.toHaveProperty('channel_id');
    expect(detail).not.toHaveProperty('upstream_task_id');
  });

  it('gives a failed task its refund and reason, and keeps it 404 for another account', async () => {
    const { key, client } = await customer(100_000);
    const bad = await submit(key, 'a storm [simulate:fail]');
    gw.clock.advance(7_000);
    await gw.sync();
    const detail = (await client.get(`/console/api/tasks/${bad.body.id}`).expect(200)).body;
    const refund = (await gw.admin.get(`/api/admin/logs?task_id=${bad.body.id}&type=refund`).expect(200)).body.data[0];
    expect(detail).toMatchObject({
      status: 'failed',
      failure_reason: 'generation failed',
      refund: { quota: refund.quota, log_id: refund.id },
      thumbnail: false,
    });
    expect(detail.charge.quota).toBe(refund.quota);
    expect(detail.flat.error).toEqual({ code: expect.any(String), message: 'generation failed' });
    expect(detail.timeline).toContainEqual({
      at: expect.any(Number),
      kind: 'status',
      status: 'failed',
      progress: 100,
      detail: 'generation failed',
    });
    expect(detail.timeline.map((entry: { kind: string }) => entry.kind)).toContain('refunded');

    const stranger = await customer(0);
    await stranger.client.get(`/console/api/tasks/${bad.body.id}`).expect(404);
    await client.get('/console/api/tasks/task_does_not_exist').expect(404);
  });

  it('shows an admin the channel, the upstream id, the owner and the unified statuses, to a token or an admin session', async () => {
    const { id, username, key } = await customer(100_000);
    const ok = await submit(key, 'rain on a tin roof');
    gw.clock.advance(7_000);
    await gw.sync();
    const detail = (await gw.admin.get(`/api/admin/tasks/${ok.body.id}`).expect(200)).body;
    const row = (await gw.admin.get(`/api/admin/tasks?user_id=${id}`).expect(200)).body.data[0];
    const channel = (await gw.admin.get(`/api/admin/channels/${row.channel_id}`).expect(200)).body;
    expect(detail).toMatchObject({
      task_id: ok.body.id,
      status: 'SUCCESS',
      flat_status: 'completed',
      user_id: id,
      username,
      channel_id: row.channel_id,
      channel_name: channel.name,
      upstream_task_id: row.upstream_task_id,
      charge: { quota: row.quota, type: 'consume' },
      refund: null,
      polls: { count: 1 },
    });
    expect(detail.timeline).toContainEqual(expect.objectContaining({ kind: 'created', status: 'SUBMITTING' }));
    expect(detail.timeline).toContainEqual(expect.objectContaining({ kind: 'submitted', status: 'NOT_START' }));
    expect(detail.timeline).toContainEqual(expect.objectContaining({ kind: 'status', status: 'SUCCESS', progress: 100 }));
    const session = await signIn({ admin_token: ADMIN_TOKEN });
    expect((await session.get(`/api/admin/tasks/${ok.body.id}`).expect(200)).body.task_id).toBe(ok.body.id);
    await gw.http.get(`/api/admin/tasks/${ok.body.id}`).expect(401);
    const missing = await gw.admin.get('/api/admin/tasks/task_nope').expect(404);
    expect(missing.body.error.message).toMatch(/task_nope/);
    // The stuck list still answers at its own path.
    await gw.admin.get('/api/admin/tasks/stuck').expect(200);
  });

  it('shows a refused submit to the admin only, with its hold and release', async () => {
    const { id, key, client } = await customer(100_000);
    await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v6', prompt: 'nope [simulate:reject]', duration: 5 })
      .expect(400);
    const row = (await gw.admin.get(`/api/admin/tasks?user_id=${id}&status=REJECTED`).expect(200)).body.data[0];
    const detail = (await gw.admin.get(`/api/admin/tasks/${row.task_id}`).expect(200)).body;
    expect(detail).toMatchObject({
      status: 'REJECTED',
      charge: { type: 'hold' },
      refund: { type: 'release' },
      failure_reason: expect.any(String),
    });
    expect(detail.timeline).toContainEqual(expect.objectContaining({ kind: 'status', status: 'REJECTED' }));
    await client.get(`/console/api/tasks/${row.task_id}`).expect(404);
  });
});
