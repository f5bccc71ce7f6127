import { readFileSync } from 'node:fs';
import { SAMPLE_IMAGE_PATH } from '../src/families/simulator-shared/sample-video';
import { binaryBody } from './support/binary-body';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { customerCalls, FamilyGateway, startFamilyGateway } from './support/family-gateway';
import { TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
const PNG = readFileSync(SAMPLE_IMAGE_PATH);

/** Kling (platform `kling`): both surfaces, a JWT-signed fake upstream, the model rules, refunds and channel faults. */
describeOnSqlite('kling family', (kind) => {
  let family: FamilyGateway<KlingEmulatorServer>;
  let gw: TestGateway;
  let fake: KlingEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    family = await startFamilyGateway(
      kind,
      startKlingEmulator,
      {
        name: 'kling-main',
        platform: 'kling',
        models: ['kling-v2-6', 'kling-v2-5-turbo', 'kling-v2-1', 'kling-v2-1-master', 'kling-v1-6'],
        priority: 10,
      },
      QUOTA,
    );
    ({ gw, fake, customer } = family);
  });
  afterAll(async () => {
    await family?.close();
  });

  const { auth, flat, unified, flatTask, unifiedTask } = customerCalls(() => family);
  const balance = () => gw.balance(customer.userId);
  const settle = async () => {
    for (let round = 0; round < 5; round++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
  };
  const content = (path: string, withKey = true) => {
    const req = gw.http.get(path).buffer(true).parse(binaryBody);
    return withKey ? auth(req) : req;
  };
  const lastCreate = () => fake.creates.at(-1)!;

  it('runs text-to-video on /v1/videos: JWT-signed create, the model priced per second, the video through /content and a signed link', async () => {
    const before = await balance();
    const res = await flat({ model: 'kling-v2-5-turbo', prompt: 'a red fox in fresh snow', seconds: '5', size: '1280x720' }).expect(200);
    expect(res.body).toMatchObject({ object: 'video', model: 'kling-v2-5-turbo', status: 'queued' });
    expect(lastCreate().endpoint).toBe('text2video');
    expect(lastCreate().body).toEqual({
      model_name: 'kling-v2-5-turbo',
      mode: 'std',
      duration: '5',
      prompt: 'a red fox in fresh snow',
      aspect_ratio: '16:9',
    });
    const token = fake.tokens.at(-1)!;
    expect(token.iss).toBe(fake.accessKey);
    expect(token.exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1800);
    expect(token.nbf).toBeLessThan(token.exp);
    expect(JSON.stringify(lastCreate().request.headers)).not.toContain(fake.secretKey);
    // 720p list price 0.021 USD/s = 420 units/s.
    expect(await balance()).toEqual({ quota: before.quota - 5 * 420, used_quota: before.used_quota + 5 * 420 });
    await settle();
    const done = await flatTask(res.body.id);
    expect(done.status).toBe('completed');
    // The size it was sent, though Kling does not report one.
    expect(done.size).toBe('1280x720');
    expect(JSON.stringify(done)).not.toContain(fake.url);
    const bytes = await content(`/v1/videos/${res.body.id}/content`).expect(200);
    expect(Buffer.compare(bytes.body as Buffer, fake.videoBytes)).toBe(0);
    const signed = new URL(done.metadata.url as string);
    const viaLink = await content(`${signed.pathname}${signed.search}`, false).expect(200);
    expect(Buffer.compare(viaLink.body as Buffer, fake.videoBytes)).toBe(0);
  });

  it('runs image-to-video on /v1/videos from a multipart file part: raw base64 upstream, queried on image2video', async () => {
    const res = await auth(gw.http.post('/v1/videos'))
      .field('model', 'kling-v2-1')
      .field('prompt', 'she turns to the sea')
      .field('seconds', '10')
      .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
      .expect(200);
    expect(lastCreate().endpoint).toBe('image2video');
    expect(lastCreate().body).toEqual({
      model_name: 'kling-v2-1',
      mode: 'std',
      duration: '10',
      prompt: 'she turns to the sea',
      image: PNG.toString('base64'),
    });
    await settle();
    expect((await flatTask(res.body.id)).status).toBe('completed');
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/image2video/'))).toBe(true);
    const bytes = await content(`/v1/videos/${res.body.id}/content`).expect(200);
    expect(Buffer.compare(bytes.body as Buffer, fake.videoBytes)).toBe(0);
  });

  it('runs text-to-video on /v1/video/generations with the same fields, metadata passed through and sound billed at the audio tier', async () => {
    const before = await balance();
    const res = await unified({
      model: 'kling-v2-6',
      prompt: 'rain on a tin roof',
      duration: 5,
      aspect_ratio: '9:16',
      resolution: '1080p',
      metadata: { sound: 'on', camera_control: { type: 'forward_up' } },
    }).expect(200);
    expect(lastCreate().body).toEqual({
      model_name: 'kling-v2-6',
      mode: 'pro',
      duration: '5',
      prompt: 'rain on a tin roof',
      aspect_ratio: '9:16',
      sound: 'on',
      camera_control: { type: 'forward_up' },
    });
    expect(await balance()).toEqual({ quota: before.quota - 5 * 1400, used_quota: before.used_quota + 5 * 1400 });
    await settle();
    const done = await unifiedTask(res.body.id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', platform: '', channel_id: 0 });
    expect(JSON.stringify(done)).not.toContain(fake.url);
    const link = new URL(done.result_url as string);
    const bytes = await content(`${link.pathname}${link.search}`, false).expect(200);
    expect(Buffer.compare(bytes.body as Buffer, fake.videoBytes)).toBe(0);
  });

  it('runs image-to-video on /v1/video/generations with a data URI first frame and a URL last frame at 1080p', async () => {
    const res = await unified({
      model: 'kling-v1-6',
      prompt: 'the door opens',
      input_reference: `data:image/png;base64,${PNG.toString('base64')}`,
      last_frame: 'http://127.0.0.1:9/last.png',
      resolution: '1080p',
      negative_prompt: 'blur',
    }).expect(200);
    expect(lastCreate().endpoint).toBe('image2video');
    expect(lastCreate().body).toEqual({
      model_name: 'kling-v1-6',
      mode: 'pro',
      duration: '5',
      prompt: 'the door opens',
      negative_prompt: 'blur',
      image: PNG.toString('base64'),
      image_tail: 'http://127.0.0.1:9/last.png',
    });
    await settle();
    expect((await unifiedTask(res.body.id)).status).toBe('SUCCESS');
  });

  it.each([
    ['flat', { model: 'kling-v2-1', prompt: 'no image' }, 'input_reference'],
    ['flat', { model: 'kling-v2-5-turbo', prompt: 'p', seconds: '7' }, 'seconds'],
    ['unified', { model: 'kling-v2-5-turbo', prompt: 'p', duration: 8 }, 'duration'],
    ['unified', { model: 'kling-v2-6', prompt: 'p', resolution: '720p' }, 'resolution'],
    ['flat', { model: 'kling-v2-1-master', prompt: 'p', size: '1280x720' }, 'size'],
    ['flat', { model: 'kling-v2-5-turbo', prompt: 'p', size: '1000x1000' }, 'size'],
    ['unified', { model: 'kling-v2-5-turbo', prompt: 'p', seed: 3 }, 'seed'],
    ['unified', { model: 'kling-v2-5-turbo', prompt: 'p', metadata: { model_name: 'kling-v1' } }, 'metadata.model_name'],
    ['unified', { model: 'kling-v2-5-turbo', prompt: 'p', metadata: { sound: 'on' } }, 'metadata.sound'],
    ['unified', { model: 'kling-v2-6', prompt: 'p', metadata: { cfg_scale: 0.5 } }, 'metadata.cfg_scale'],
    [
      'unified',
      { model: 'kling-v2-1-master', prompt: 'p', input_reference: 'http://127.0.0.1:9/a.png', last_frame: 'http://127.0.0.1:9/b.png' },
      'last_frame',
    ],
    ['unified', { model: 'kling-v1-6', prompt: 'p', input_reference: 'http://127.0.0.1:9/a.png', aspect_ratio: '16:9' }, 'aspect_ratio'],
    ['unified', { model: 'kling-v1-6', prompt: 'p', input_reference: 'data:image/gif;base64,R0lGOD' }, 'input_reference'],
    ['flat', { model: 'kling-v2-5-turbo' }, 'prompt'],
    ['unified', { model: 'kling-v1-6', prompt: 'p', resolution: '720p', metadata: { mode: 'pro' } }, 'resolution'],
  ])('refuses on %s %j with a 400 naming %s, nothing charged', async (form, body, param) => {
    const before = await balance();
    const creates = fake.creates.length;
    const res = await (form === 'flat' ? flat(body) : unified(body)).expect(400);
    // The flat form names the field in `error.param`; the unified wrapper has only the message, which names it.
    if (form === 'flat') expect(res.body.error.param).toBe(param);
    expect(res.body.error?.message ?? res.body.message).toContain(param);
    expect(await balance()).toEqual(before);
    expect(fake.creates.length).toBe(creates);
  });

  it('fails a task Kling failed, refunds it once, and never shows the provider text', async () => {
    const before = await balance();
    fake.scriptNext(['processing', { failed: 'Video generation failed at http://10.1.1.1/worker' }]);
    const res = await flat({ model: 'kling-v2-5-turbo', prompt: 'a storm' }).expect(200);
    await settle();
    const failed = await flatTask(res.body.id);
    expect(failed).toMatchObject({ status: 'failed', error: { message: 'generation failed' } });
    expect(JSON.stringify(failed)).not.toContain('10.1.1.1');
    expect(await balance()).toEqual(before);
  });

  it('fails a task whose output Kling moderated as content moderation failed, refunded', async () => {
    const before = await balance();
    fake.scriptNext(['processing', { failed: 'Failure to pass the risk control system' }]);
    const res = await unified({ model: 'kling-v2-5-turbo', prompt: 'a storm' }).expect(200);
    await settle();
    expect(await unifiedTask(res.body.id)).toMatchObject({ status: 'FAILURE', fail_reason: 'content moderation failed' });
    expect(await balance()).toEqual(before);
  });

  it('fails a submit Kling refuses with 1301 as content moderation failed, refunded', async () => {
    const before = await balance();
    fake.failNextSubmit({ status: 400, code: 1301 });
    const res = await flat({ model: 'kling-v2-5-turbo', prompt: 'something unsafe' }).expect(200);
    expect(res.body.status).toBe('failed');
    expect(await flatTask(res.body.id)).toMatchObject({ status: 'failed', error: { message: 'content moderation failed' } });
    expect(await balance()).toEqual(before);
  });

  it('turns 1201 into a 400 naming only the code, 1303 into a 429 with Retry-After, 5000 into a 503; none charged', async () => {
    const before = await balance();
    fake.failNextSubmit({ status: 400, code: 1201 });
    const bad = await flat({ model: 'kling-v2-5-turbo', prompt: 'p' }).expect(400);
    expect(bad.body.error.message).toBe('upstream rejected the request: 1201: invalid request parameters');
    expect(JSON.stringify(bad.body)).not.toMatch(/10\.0\.0\.9|invalid param/);
    fake.failNextSubmit({ status: 429, code: 1303, headers: { 'retry-after': '7' } });
    const busy = await flat({ model: 'kling-v2-5-turbo', prompt: 'p' }).expect(429);
    expect(busy.headers['retry-after']).toBe('7');
    fake.failNextSubmit({ status: 500, code: 5000 });
    const down = await flat({ model: 'kling-v2-5-turbo', prompt: 'p' }).expect(503);
    expect(down.headers['retry-after']).toBeDefined();
    expect(await balance()).toEqual(before);
  });

  it('ends a balance error (1102) on its only channel in a 503, nothing charged', async () => {
    const before = await balance();
    fake.failNextSubmit({ status: 429, code: 1102 });
    const res = await flat({ model: 'kling-v2-5-turbo', prompt: 'p' }).expect(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.5|Resource pack/);
    expect(await balance()).toEqual(before);
  });

  it('lists the family in GET /api/admin/platforms', async () => {
    const data = (await gw.admin.get('/api/admin/platforms').expect(200)).body.data as Array<{
      platform: string;
      label: Record<string, string>;
      models: string[];
    }>;
    expect(data.find((family) => family.platform === 'kling')).toMatchObject({
      label: { en: 'Kling', 'zh-CN': '可灵 Kling' },
      models: ['kling-v2-6', 'kling-v2-5-turbo', 'kling-v2-1', 'kling-v2-1-master', 'kling-v1-6'],
    });
  });

  // Last: it adds a second channel, and leaves the first one marked faulty.
  it('falls over to the next channel when Kling says the account is in arrears (1101), charging once', async () => {
    const second = await startKlingEmulator({ accessKey: 'AKSECONDKLING02', secretKey: 'second-secret-02' });
    try {
      await gw.createChannel({
        name: 'kling-second',
        platform: 'kling',
        base_url: second.url,
        api_key: second.apiKey,
        models: ['kling-v2-6', 'kling-v2-5-turbo', 'kling-v2-1', 'kling-v2-1-master', 'kling-v1-6'],
        priority: 0,
      });
      const before = await balance();
      fake.failNextSubmit({ status: 429, code: 1101 });
      const res = await flat({ model: 'kling-v2-5-turbo', prompt: 'fallback', seconds: '5' }).expect(200);
      expect(second.creates).toHaveLength(1);
      expect(second.tokens.at(-1)!.iss).toBe('AKSECONDKLING02');
      expect(await balance()).toEqual({ quota: before.quota - 2100, used_quota: before.used_quota + 2100 });
      await settle();
      expect((await flatTask(res.body.id)).status).toBe('completed');
    } finally {
      await second.close();
    }
  });
});
