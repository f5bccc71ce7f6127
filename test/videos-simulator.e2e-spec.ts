import { GENERATION_MS } from '../src/families/alpha/emulator/alpha-emulator';
import { binaryBody, fakePng } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

/** The walk-through of the README: the embedded simulator, defaults for media hosts, a real MP4. */
describeOnSqlite('videos: family A through the embedded simulator', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    customer = await gw.createCustomer({ quota: 1_000_000 });
  });
  afterAll(async () => gw?.close());

  const submit = (body: object) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body);
  const get = (path: string) => gw.http.get(path).set('Authorization', `Bearer ${customer.key}`);
  /** The seeded channel polls every 2 s. */
  const pollRound = async (ms = 2000) => {
    gw.clock.advance(ms);
    await gw.sync();
  };

  it('generates text-to-video and serves a real, playable MP4 through /content', async () => {
    const { body } = await submit({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', seconds: '4', size: '1280x720' }).expect(200);
    await pollRound();
    const running = (await get(`/v1/videos/${body.id}`).expect(200)).body;
    expect(running.status).toBe('in_progress');
    await pollRound(GENERATION_MS);
    const done = (await get(`/v1/videos/${body.id}`).expect(200)).body;
    expect(done).toMatchObject({
      status: 'completed',
      progress: 100,
      size: '1280x720',
      metadata: { url: expect.stringMatching(`^${gw.url}/v1/videos/${body.id}/content\\?expires=`) },
    });
    const video = await get(`/v1/videos/${body.id}/content`).buffer(true).parse(binaryBody).expect(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    // The simulator's video, made to what was asked (so it settles at what was charged).
    expect((video.body as Buffer).toString('latin1', 4, 8)).toBe('ftyp');
    expect(done.usage).toMatchObject({ settled: 'delivered' });
    const head = await get(`/v1/videos/${body.id}/content`).set('Range', 'bytes=0-7').buffer(true).parse(binaryBody).expect(206);
    expect((head.body as Buffer).toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('uploads a data URI image to the simulator for image-to-video', async () => {
    const image = `data:image/png;base64,${fakePng(512).toString('base64')}`;
    const { body } = await submit({ model: 'alpha/v5.5', prompt: 'it moves', image }).expect(200);
    await pollRound(GENERATION_MS);
    expect((await get(`/v1/videos/${body.id}`).expect(200)).body.status).toBe('completed');
  });

  it.each([
    ['[simulate:fail]', 'generation failed'],
    ['[simulate:moderation]', 'content moderation failed'],
  ])('ends a task whose prompt holds %s as failed (%s) and refunds it', async (marker, reason) => {
    const before = await gw.balance(customer.userId);
    const { body } = await submit({ model: 'alpha/v6', prompt: `boom ${marker}` }).expect(200);
    expect((await gw.balance(customer.userId)).quota).toBeLessThan(before.quota);
    await pollRound(GENERATION_MS);
    expect((await get(`/v1/videos/${body.id}`).expect(200)).body).toMatchObject({ status: 'failed', error: { message: reason } });
    expect(await gw.balance(customer.userId)).toEqual(before);
    const refunds = await gw.admin.get(`/api/admin/logs?task_id=${body.id}&type=refund`).expect(200);
    expect(refunds.body.data[0].detail).toContain(reason);
  });

  it('refuses submits on [simulate:reject] (400) and [simulate:busy] (429) without charging', async () => {
    const before = await gw.balance(customer.userId);
    await submit({ model: 'alpha/v6', prompt: 'no [simulate:reject]' }).expect(400);
    const busy = await submit({ model: 'alpha/v6', prompt: 'wait [simulate:busy]' }).expect(429);
    expect(busy.headers['retry-after']).toBeDefined();
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('checks the API-KEY like the provider', async () => {
    const res = await gw.http.get('/simulator/alpha/openapi/v2/video/result/1').set('API-KEY', 'wrong').expect(401);
    expect(res.body).toEqual({ err_code: 401, err_msg: 'invalid API-KEY', resp: '' });
  });
});

describeOnSqlite('videos: simulator off', (kind) => {
  it('does not mount the family A simulator', async () => {
    const gw = await startGateway(kind, { SIMULATOR: 'off' });
    try {
      await gw.http.get('/simulator/alpha/openapi/v2/video/result/1').set('API-KEY', 'simulator-key').expect(404);
      await gw.http.post('/simulator/alpha/openapi/v2/video/text/generate').set('API-KEY', 'simulator-key').send({}).expect(404);
    } finally {
      await gw.close();
    }
  });
});
