import { binaryBody } from './support/binary-body';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const SUBMIT = '/simulator/beta/api/v1/services/aigc/video-generation/video-synthesis';

/** The embedded family B simulator, end to end through the gateway's own channel. */
describeOnSqlite('generations: family B simulator', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };

  const auth = (test: import('supertest').Test) => test.set('Authorization', `Bearer ${customer.key}`);
  const unified = async (taskId: string) => (await auth(gw.http.get(`/v1/video/generations/${taskId}`)).expect(200)).body.data;
  const pollRound = async (ms: number) => {
    gw.clock.advance(ms);
    await gw.sync();
  };

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    customer = await gw.createCustomer({ quota: 100_000 });
  });
  afterAll(async () => gw?.close());

  it('generates a video through the simulator channel and serves a real MP4 at the signed link', async () => {
    const { body } = await auth(
      gw.http.post('/v1/video/generations').send({ model: 'beta-1.0-t2v', prompt: 'sunrise', size: '720P' }),
    ).expect(200);
    expect((await unified(body.id)).status).toBe('NOT_START');
    // The seeded channel asks for 2 s polling; family B is never polled faster than every 5 s.
    await pollRound(2_000);
    expect((await unified(body.id)).status).toBe('NOT_START');
    await pollRound(3_000);
    expect((await unified(body.id)).status).toBe('IN_PROGRESS');
    await pollRound(5_000);
    const done = await unified(body.id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', platform: '', channel_id: 0 });
    // result_url is the gateway's own signed link, and so is the raw record's: the simulator's never reaches a client.
    const signed = new RegExp(`^${gw.url}/v1/videos/${body.id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`);
    expect(done.result_url).toMatch(signed);
    expect(done.data.output.video_url).toMatch(signed);
    expect(JSON.stringify(done)).not.toContain('/simulator/beta/videos/');
    expect(done.data.usage).toEqual({
      duration: 5,
      input_video_duration: 0,
      output_video_duration: 5,
      video_count: 1,
      SR: 720,
      ratio: '16:9',
    });
    const video = await gw.http.get(done.result_url.slice(gw.url.length)).buffer(true).parse(binaryBody).expect(200);
    expect(video.headers['content-type']).toMatch(/video\/mp4/);
    // The simulator's video, made to what was asked (so it settles at what was charged).
    expect((video.body as Buffer).toString('latin1', 4, 8)).toBe('ftyp');
    expect(done.usage).toMatchObject({ settled: 'delivered' });
    const ranged = await gw.http
      .get(done.result_url.slice(gw.url.length))
      .set('Range', 'bytes=0-7')
      .buffer(true)
      .parse(binaryBody)
      .expect(206);
    expect((ranged.body as Buffer).toString('latin1', 4, 8)).toBe('ftyp');
    await gw.http.get(done.result_url.slice(gw.url.length).replace(/signature=[^&]+/, 'signature=forged')).expect(403);
  });

  it('fails a task whose prompt asks for it, with the code in fail_reason, and refunds', async () => {
    const before = await gw.balance(customer.userId);
    const { body } = await auth(
      gw.http.post('/v1/video/generations').send({ model: 'beta-1.0-t2v', prompt: 'boom [simulate:fail]' }),
    ).expect(200);
    await pollRound(5_000);
    await pollRound(5_000);
    const failed = await unified(body.id);
    expect(failed).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: expect.stringContaining('InternalError.Algo') });
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('speaks the provider protocol: Bearer, X-DashScope-Async, validation, UNKNOWN ids', async () => {
    const body = { model: 'beta-1.0-t2v', input: { prompt: 'p' }, parameters: { resolution: '720P' } };
    const noKey = await gw.http.post(SUBMIT).send(body).expect(401);
    expect(noKey.body).toMatchObject({ code: 'InvalidApiKey' });
    const sync = await gw.http.post(SUBMIT).set('Authorization', 'Bearer simulator-key').send(body).expect(403);
    expect(sync.body).toMatchObject({ code: 'AccessDenied', message: 'current user api does not support synchronous calls' });
    const edit = {
      model: 'beta-1.0-video-edit',
      input: { prompt: 'p', media: [{ type: 'video', url: 'https://example.com/a.mp4' }] },
      parameters: { duration: 5 },
    };
    const bad = await gw.http
      .post(SUBMIT)
      .set('Authorization', 'Bearer simulator-key')
      .set('X-DashScope-Async', 'enable')
      .send(edit)
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'InvalidParameter' });
    const ok = await gw.http
      .post(SUBMIT)
      .set('Authorization', 'Bearer simulator-key')
      .set('X-DashScope-Async', 'enable')
      .send(body)
      .expect(200);
    expect(ok.body).toEqual({ request_id: expect.any(String), output: { task_id: expect.any(String), task_status: 'PENDING' } });
    const unknown = await gw.http.get('/simulator/beta/api/v1/tasks/nope').set('Authorization', 'Bearer simulator-key').expect(200);
    expect(unknown.body.output).toEqual({ task_id: 'nope', task_status: 'UNKNOWN' });
  });
});

describeOnSqlite('generations: family B simulator off', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'off' });
  });
  afterAll(async () => gw?.close());

  it('is not mounted', async () => {
    await gw.http.post(SUBMIT).set('Authorization', 'Bearer simulator-key').set('X-DashScope-Async', 'enable').send({}).expect(404);
    await gw.http.get('/simulator/beta/api/v1/tasks/x').set('Authorization', 'Bearer simulator-key').expect(404);
  });
});
