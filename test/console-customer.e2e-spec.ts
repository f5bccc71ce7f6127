import request from 'supertest';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/** The customer console API against the embedded simulator: tasks, the video, refunds, verification. */
describeEachDatabase('console customer pages', (kind) => {
  let gw: TestGateway;
  let counter = 0;

  interface Client {
    cookie: string;
    get(path: string): request.Test;
    head(path: string): request.Test;
    post(path: string, body?: object): request.Test;
  }

  async function signIn(body: object): Promise<Client> {
    const res = await gw.http.post('/console/api/session').send(body).expect(200);
    const cookie = String(res.headers['set-cookie'][0]).split(';')[0];
    return {
      cookie,
      get: (path) => gw.http.get(path).set('Cookie', cookie),
      head: (path) => gw.http.head(path).set('Cookie', cookie),
      post: (path, data) =>
        gw.http
          .post(path)
          .set('Cookie', cookie)
          .set('X-CSRF-Token', res.body.csrf_token)
          .send(data ?? {}),
    };
  }

  async function customer(quota: number) {
    const username = `cc_${kind}_${++counter}`;
    const { body } = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota }).expect(201);
    const key = await gw.admin.post(`/api/admin/users/${body.id}/keys`, { name: 'k' }).expect(201);
    return { id: body.id as number, key: key.body.key as string, client: await signIn({ username, password: 'pass-word-1' }) };
  }

  /** Lets the simulated provider finish (6 s of test-clock time) and the sync job notice. */
  async function finishGenerations(): Promise<void> {
    gw.clock.advance(7_000);
    await gw.sync();
  }

  const submit = (key: string, prompt: string) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(200);

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => gw?.close());

  it('lists tasks by status with progress and reason, and streams the finished video with ranges', async () => {
    const { id, key, client } = await customer(100_000);
    const ok = await submit(key, 'a quiet harbour');
    const bad = await submit(key, 'a storm [simulate:fail]');
    const running = await client.get(`/console/api/tasks/${ok.body.id}`).expect(200);
    expect(running.body).toMatchObject({ task_id: ok.body.id, model: 'alpha/v6', status: 'queued', has_video: false, fail_reason: null });
    const early = await client.get(`/console/api/tasks/${ok.body.id}/content`).expect(409);
    expect(early.body.error.message).toMatch(/not completed/);

    await finishGenerations();
    const completed = await client.get('/console/api/tasks?status=completed').expect(200);
    expect(completed.body).toEqual({
      total: 1,
      data: [
        expect.objectContaining({
          task_id: ok.body.id,
          status: 'completed',
          progress: 100,
          has_video: true,
          size: expect.stringMatching(/^\d+x\d+$/),
        }),
      ],
    });
    const failed = await client.get('/console/api/tasks?status=failed&model=alpha/v6').expect(200);
    expect(failed.body.data).toEqual([
      expect.objectContaining({
        task_id: bad.body.id,
        status: 'failed',
        progress: 100,
        fail_reason: 'generation failed',
        has_video: false,
      }),
    ]);
    const all = await client.get('/console/api/tasks').expect(200);
    expect(all.body.data.map((task: { task_id: string }) => task.task_id)).toEqual([bad.body.id, ok.body.id]);

    const viaApi = await gw.http
      .get(`/v1/videos/${ok.body.id}/content`)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const whole = await client
      .get(`/console/api/tasks/${ok.body.id}/content`)
      .buffer(true)
      .parse(binary)
      .expect(200)
      .expect('content-type', 'video/mp4')
      .expect('accept-ranges', 'bytes');
    expect(Buffer.compare(whole.body, viaApi.body)).toBe(0);
    const part = await client
      .get(`/console/api/tasks/${ok.body.id}/content`)
      .set('Range', 'bytes=100-199')
      .buffer(true)
      .parse(binary)
      .expect(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${whole.body.length}`);
    expect(Buffer.compare(part.body, whole.body.subarray(100, 200))).toBe(0);
    const head = await client.head(`/console/api/tasks/${ok.body.id}/content`).expect(200);
    expect(head.headers['content-length']).toBe(String(whole.body.length));

    const stranger = await customer(0);
    await stranger.client.get(`/console/api/tasks/${ok.body.id}/content`).expect(404);
    await stranger.client.get(`/console/api/tasks/${ok.body.id}`).expect(404);
    await gw.http.get(`/console/api/tasks/${ok.body.id}/content`).expect(401);
    const admin = await signIn({ admin_token: ADMIN_TOKEN });
    await admin.get(`/console/api/tasks/${ok.body.id}/content`).expect(403);

    // The ledger: both charges, and the failed task's refund with its task and reason.
    const logs = await client.get('/console/api/logs?type=refund').expect(200);
    const charge = (await gw.admin.get(`/api/admin/logs?task_id=${bad.body.id}&type=consume`).expect(200)).body.data[0];
    expect(logs.body.data).toEqual([
      expect.objectContaining({
        type: 'refund',
        task_id: bad.body.id,
        model: 'alpha/v6',
        quota: -charge.quota,
        reason: 'generation failed',
      }),
    ]);
    expect(logs.body.totals).toMatchObject({ refund: -charge.quota, count: 1 });
    const usage = await client.get('/console/api/usage?days=1').expect(200);
    expect(usage.body.data[0]).toMatchObject({ tasks: 2, refunded: -charge.quota, spent: usage.body.data[0].consumed + charge.quota });
    expect(await gw.balance(id)).toEqual({ quota: usage.body.quota, used_quota: usage.body.data[0].spent });
    expect(usage.body.data[0].balance).toBe(usage.body.quota);
  });

  it('lets a customer apply for verification, an admin approve it in the console, then start a session', async () => {
    const { client } = await customer(0);
    const before = await client.get('/console/api/verification/applications').expect(200);
    expect(before.body).toEqual({ data: [], verification_enabled: false });
    await client.post('/console/api/verification/sessions', { callback_url: `${gw.url}/console/#/verification` }).expect(403);
    await client.get('/console/api/verification/groups').expect(403);
    const filed = await client
      .post('/console/api/verification/applications', { company: 'Acme', use_case: 'greeting videos', contact: 'ops@acme.test' })
      .expect(201);
    expect(filed.body).toMatchObject({ status: 'pending', company: 'Acme' });
    await client.post('/console/api/verification/applications', { company: 'Acme', use_case: 'again', contact: 'x' }).expect(409);

    const admin = await signIn({ admin_token: ADMIN_TOKEN });
    const pending = await admin.get('/api/admin/verification/applications?status=pending').expect(200);
    expect(pending.body.data.map((a: { id: number }) => a.id)).toContain(filed.body.id);
    await admin.post(`/api/admin/verification/applications/${filed.body.id}/approve`, {}).expect(200);

    const after = await client.get('/console/api/verification/applications').expect(200);
    expect(after.body).toMatchObject({ verification_enabled: true, data: [expect.objectContaining({ status: 'approved' })] });
    const session = await client
      .post('/console/api/verification/sessions', { callback_url: `${gw.url}/console/#/verification` })
      .expect(201);
    expect(session.body).toEqual({
      session_id: expect.any(String),
      provider_token: expect.any(String),
      h5_link: expect.stringMatching(/^https?:\/\//),
    });
    const read = await client.get(`/console/api/verification/sessions/${session.body.session_id}`).expect(200);
    expect(read.body).toMatchObject({ session_id: session.body.session_id, status: 'pending', group_id: null });
    expect((await client.get('/console/api/verification/groups').expect(200)).body).toEqual({ data: [] });
    await client.get('/console/api/verification/groups/nope/assets').expect(404);
  });
});

/** supertest parser that keeps the body as bytes (supertest hands it the raw response stream). */
function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}
