import { addOpenAiModels } from './support/catalog-models';
import OpenAI, { toFile } from 'openai';
import { binaryBody } from './support/binary-body';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
const collect = binaryBody;
const PER_SECOND = 700;

/** Family O: an OpenAI-compatible upstream behind /v1/videos, models listed by the operator on its channel. */
describeOnSqlite('videos: family O (OpenAI-compatible upstream)', (kind) => {
  let gw: TestGateway;
  let fake: OpenAiEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    fake = await startOpenAiEmulator();
    gw = await startGateway(kind);
    await addOpenAiModels(gw, ['chained-v6', 'Studio-Clip'], PER_SECOND);
    await gw.createChannel({
      name: 'openai-compatible',
      platform: 'openai',
      base_url: `${fake.url}/v1`,
      api_key: fake.apiKey,
      models: ['chained-v6', 'Studio-Clip'],
      model_mapping: { 'chained-v6': 'upstream-v6' },
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const as = (key: string) => ({
    post: (path: string) => gw.http.post(path).set('Authorization', `Bearer ${key}`),
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
  });
  const submit = (body: object) => as(customer.key).post('/v1/videos').send(body);
  const lastSubmit = async () => (await fake.submits()).at(-1)!;
  const ledgerOf = async (taskId: string) =>
    (await gw.admin.get(`/api/admin/logs?task_id=${taskId}`).expect(200)).body.data as Array<{ type: string; quota: number }>;
  const pollRound = async () => {
    gw.clock.advance(6_000);
    await gw.sync();
  };

  it('forwards a JSON submit exactly, with the channel key, and charges the listed price', async () => {
    const before = await gw.balance(customer.userId);
    const res = await submit({ model: 'studio-clip', prompt: 'a lighthouse at dusk', seconds: '8', size: '1280x720' }).expect(200);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^task_/), object: 'video', model: 'Studio-Clip', status: 'queued' });
    const sent = await lastSubmit();
    expect(sent.request.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent.json).toEqual({ model: 'Studio-Clip', prompt: 'a lighthouse at dusk', seconds: '8', size: '1280x720' });
    expect(await gw.balance(customer.userId)).toEqual({
      quota: before.quota - 8 * PER_SECOND,
      used_quota: before.used_quota + 8 * PER_SECOND,
    });
  });

  it('applies model_mapping and forwards a multipart submit with its input_reference file (OpenAI SDK)', async () => {
    const client = new OpenAI({ apiKey: customer.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const image = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(300, 7)]);
    const created = await client.videos.create({
      model: 'chained-v6',
      prompt: 'she turns to the sea',
      seconds: '4',
      size: '720x1280',
      input_reference: await toFile(image, 'frame.png', { type: 'image/png' }),
    });
    expect(created).toMatchObject({ object: 'video', model: 'chained-v6', status: 'queued' });
    const sent = await lastSubmit();
    expect(String(sent.request.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.fields).toEqual({ model: 'upstream-v6', prompt: 'she turns to the sea', seconds: '4', size: '720x1280' });
    expect(sent.file).toEqual({ name: 'frame.png', type: 'image/png', bytes: image });
  });

  it('follows a task to completed and streams its content with the channel key', async () => {
    const res = await submit({ model: 'chained-v6', prompt: 'waves', seconds: '4' }).expect(200);
    const upstreamId = (await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}`).expect(200)).body.data.find(
      (t: { task_id: string }) => t.task_id === res.body.id,
    );
    await pollRound();
    await pollRound();
    await pollRound();
    const done = (await as(customer.key).get(`/v1/videos/${res.body.id}`).expect(200)).body;
    expect(done).toMatchObject({ status: 'completed', progress: 100, size: '720x1280' });
    const content = await as(customer.key).get(`/v1/videos/${res.body.id}/content`).buffer(true).parse(collect);
    expect(content.status).toBe(200);
    expect(Buffer.compare(content.body as Buffer, fake.videoBytes)).toBe(0);
    const download = fake.contentRequests().at(-1)!;
    expect(download.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    const ranged = await as(customer.key).get(`/v1/videos/${res.body.id}/content`).set('Range', 'bytes=0-99').expect(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${fake.videoBytes.length}`);
    expect(upstreamId).toBeDefined();
  });

  it("never shows a customer the operator's sources: no platform, channel or upstream model name on any surface; the admin sees them", async () => {
    const username = `sources_${kind}_${process.pid}`;
    const user = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: QUOTA }).expect(201);
    const key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'k' }).expect(201)).body.key as string;
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
    const id = (await as(key).post('/v1/videos').send({ model: 'chained-v6', prompt: 'waves', seconds: '4' }).expect(200)).body.id;
    expect((await lastSubmit()).json).toMatchObject({ model: 'upstream-v6' });
    const seen = async () => [
      (await as(key).get(`/v1/video/generations/${id}`).expect(200)).body,
      (await as(key).get(`/v1/videos/${id}`).expect(200)).body,
      (await as(key).get('/v1/videos').expect(200)).body,
      (await gw.http.get(`/console/api/tasks/${id}`).set('Cookie', cookie).expect(200)).body,
      (await gw.http.get('/console/api/tasks').set('Cookie', cookie).expect(200)).body,
    ];
    const channelId = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body.channel_id as number;
    for (const round of [0, 1, 2, 3]) {
      if (round > 0) await pollRound();
      for (const body of await seen()) {
        // The provider's own answer names the model it ran: a customer reads the public id there too.
        expect(JSON.stringify(body)).not.toMatch(/upstream-v6|"platform":"openai"|openai-compatible/);
        expect(JSON.stringify(body)).not.toContain(`"channel_id":${channelId}`);
      }
    }
    const unified = (await as(key).get(`/v1/video/generations/${id}`).expect(200)).body.data;
    expect(unified).toMatchObject({
      status: 'SUCCESS',
      platform: '',
      channel_id: 0,
      properties: { upstream_model_name: 'chained-v6', origin_model_name: 'chained-v6' },
    });
    expect(unified.data.model).toBe('chained-v6');
    expect((await gw.http.get(`/console/api/tasks/${id}`).set('Cookie', cookie).expect(200)).body.unified.data).toMatchObject({
      platform: '',
      channel_id: 0,
    });
    // The operator's drawer shows where the task went.
    const admin = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(admin).toMatchObject({ upstream_model: 'upstream-v6', channel_id: channelId });
    expect(admin.unified.data).toMatchObject({
      platform: 'openai',
      channel_id: channelId,
      properties: { upstream_model_name: 'upstream-v6' },
      data: { model: 'upstream-v6' },
    });
  });

  it('treats an unknown upstream status as transient: the task goes on and completes', async () => {
    fake.scriptNext(['queued', { body: { id: 'x', object: 'video', status: 'archiving', progress: 50 } }, 'completed']);
    const res = await submit({ model: 'chained-v6', prompt: 'fog', seconds: '4' }).expect(200);
    await pollRound();
    await pollRound();
    expect((await as(customer.key).get(`/v1/videos/${res.body.id}`).expect(200)).body.status).not.toMatch(/completed|failed/);
    // A failed poll backs off before the next one.
    gw.clock.advance(60_000);
    await gw.sync();
    expect((await as(customer.key).get(`/v1/videos/${res.body.id}`).expect(200)).body.status).toBe('completed');
  });

  it('fails a task the upstream failed, refunds it exactly once, and names only the code', async () => {
    const before = await gw.balance(customer.userId);
    fake.scriptNext(['queued', { status: 'failed', code: 'moderation_blocked', message: 'blocked at http://10.0.0.7/x' }]);
    const res = await submit({ model: 'chained-v6', prompt: 'a storm', seconds: '4' }).expect(200);
    for (let i = 0; i < 4; i++) await pollRound();
    const failed = (await as(customer.key).get(`/v1/videos/${res.body.id}`).expect(200)).body;
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'content moderation failed: moderation_blocked' } });
    expect(JSON.stringify(failed)).not.toContain('10.0.0.7');
    expect(await gw.balance(customer.userId)).toEqual(before);
    const types = (await ledgerOf(res.body.id)).map((row) => row.type).sort();
    expect(types).toEqual(['consume', 'refund'].sort());
  });

  it('turns an upstream 400 into a 400 with no charge (the crash-safe hold is reverted in the same submit)', async () => {
    const before = await gw.balance(customer.userId);
    const rowsBefore = (await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}`).expect(200)).body.total;
    fake.failNextSubmit({
      status: 400,
      body: {
        error: {
          message: 'Invalid seconds at http://10.0.0.9/secret, key sk-abcdef123456',
          type: 'invalid_request_error',
          param: 'seconds',
          code: 'invalid_value',
        },
      },
    });
    const res = await submit({ model: 'chained-v6', prompt: 'p', seconds: '7' }).expect(400);
    expect(res.body.error.message).toBe('upstream rejected the request: invalid_value: invalid value (param: seconds)');
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.9|sk-abc/);
    expect(await gw.balance(customer.userId)).toEqual(before);
    // The charge is held before the upstream call (crash safety) and released when the upstream refuses: net zero, nothing the customer sees.
    const logs = (await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}`).expect(200)).body;
    expect(logs.total).toBe(rowsBefore + 2);
    const added = (logs.data as Array<{ type: string; quota: number; detail: string }>).slice(0, 2);
    expect(added.map((row) => row.type).sort()).toEqual(['hold', 'release']);
    expect(Math.abs(added[0].quota)).toBe(Math.abs(added[1].quota));
    expect(added.find((row) => row.type === 'release')!.detail).toMatch(/rejected at submit/);
    expect(added.find((row) => row.type === 'release')!.detail).not.toMatch(/10\.0\.0\.9|sk-abc/);
  });

  it('turns an upstream 429 into a 429 with Retry-After and a 5xx into a 503, neither charged', async () => {
    const before = await gw.balance(customer.userId);
    fake.failNextSubmit({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } },
    });
    const busy = await submit({ model: 'chained-v6', prompt: 'p' }).expect(429);
    expect(busy.headers['retry-after']).toBe('7');
    fake.failNextSubmit({ status: 502 });
    const down = await submit({ model: 'chained-v6', prompt: 'p' }).expect(503);
    expect(down.headers['retry-after']).toBeDefined();
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('keeps a name another family owns with that family: no openai channel may list it, and it is never forwarded here', async () => {
    const refused = await gw.admin
      .post('/api/admin/channels', {
        name: 'bad',
        platform: 'openai',
        base_url: `${fake.url}/v1`,
        api_key: fake.apiKey,
        models: ['alpha/v6'],
      })
      .expect(400);
    expect(refused.body.message ?? refused.body.error?.message ?? JSON.stringify(refused.body)).toContain(
      'alpha/v6 has no route on openai',
    );
    const submits = (await fake.submits()).length;
    // No alpha channel exists in this gateway: family A answers (no channel), the openai upstream never sees it.
    await submit({ model: 'alpha/v6', prompt: 'p', seconds: '5' }).expect(503);
    expect(await fake.submits()).toHaveLength(submits);
    await submit({ model: 'not-listed-anywhere', prompt: 'p' }).expect(400);
  });

  it('refuses fields the Videos API does not take, before any charge', async () => {
    const res = await submit({ model: 'chained-v6', prompt: 'p', metadata: { x: 1 } }).expect(400);
    expect(res.body.error).toMatchObject({ param: 'metadata' });
  });
});

/** Two gateways: the second uses the first's /v1 as its OpenAI-compatible upstream. */
describeOnSqlite('videos: a gateway chained behind another (family O -> family A)', (kind) => {
  let front: TestGateway;
  let back: TestGateway;

  beforeAll(async () => {
    back = await startGateway(kind, { SIMULATOR: 'on' });
    front = await startGateway(kind);
  });
  afterAll(async () => {
    await front?.close();
    await back?.close();
  });

  it('has a simulator of its own: the seeded openai channel serves its own model (openai-simulator, by Sora 2 rules) to the end; reject and busy prompts are a 400 and a 429, not charged', async () => {
    const { userId, key } = await back.createCustomer({ quota: QUOTA });
    const auth = `Bearer ${key}`;
    const created = await back.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'openai-simulator', prompt: 'a kite', seconds: '8', size: '1280x720' })
      .expect(200);
    expect(await back.balance(userId)).toEqual({ quota: QUOTA - 8 * 1000, used_quota: 8 * 1000 });
    let video = created.body;
    for (let round = 0; round < 5 && video.status !== 'completed'; round++) {
      back.clock.advance(6_000);
      await back.sync();
      video = (await back.http.get(`/v1/videos/${created.body.id}`).set('Authorization', auth).expect(200)).body;
    }
    expect(video).toMatchObject({ status: 'completed', size: '1280x720' });
    const content = await back.http
      .get(`/v1/videos/${created.body.id}/content`)
      .set('Authorization', auth)
      .buffer(true)
      .parse(collect)
      .expect(200);
    // The simulator's video, made to what was asked (so settled at what was charged).
    expect((content.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
    const refused = await back.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'openai-simulator', prompt: 'x [simulate:reject]', seconds: '4' })
      .expect(400);
    expect(refused.body.error.message).toContain('content moderation failed');
    await back.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'openai-simulator', prompt: 'x [simulate:busy]', seconds: '4' })
      .expect(429);
    expect(await back.balance(userId)).toEqual({ quota: QUOTA - 8 * 1000, used_quota: 8 * 1000 });
  });

  it('serves chained-v6 as alpha/v6 of the first gateway, byte for byte', async () => {
    const upstreamCustomer = await back.createCustomer({ quota: QUOTA });
    await addOpenAiModels(front, ['chained-v6'], PER_SECOND);
    await front.createChannel({
      name: 'gateway-one',
      platform: 'openai',
      base_url: `${back.url}/v1`,
      api_key: upstreamCustomer.key,
      models: ['chained-v6'],
      model_mapping: { 'chained-v6': 'alpha/v6' },
    });
    const client = await front.createCustomer({ quota: QUOTA });
    const auth = `Bearer ${client.key}`;
    const created = await front.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .send({ model: 'chained-v6', prompt: 'a lighthouse', seconds: '5' })
      .expect(200);
    expect(await front.balance(client.userId)).toEqual({ quota: QUOTA - 5 * PER_SECOND, used_quota: 5 * PER_SECOND });
    const upstreamTasks = (await back.admin.get(`/api/admin/tasks?user_id=${upstreamCustomer.userId}`).expect(200)).body.data;
    expect(upstreamTasks).toHaveLength(1);
    expect(upstreamTasks[0]).toMatchObject({ model: 'alpha/v6' });

    let status = 'queued';
    for (let round = 0; round < 30 && status !== 'completed' && status !== 'failed'; round++) {
      back.clock.advance(5_000);
      front.clock.advance(6_000);
      await back.sync();
      await front.sync();
      status = (await front.http.get(`/v1/videos/${created.body.id}`).set('Authorization', auth).expect(200)).body.status;
    }
    expect(status).toBe('completed');
    const content = await front.http
      .get(`/v1/videos/${created.body.id}/content`)
      .set('Authorization', auth)
      .buffer(true)
      .parse(collect)
      .expect(200);
    // The simulator's video, made to what was asked (so settled at what was charged).
    expect((content.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});
