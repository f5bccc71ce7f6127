import { binaryBody } from './support/binary-body';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { describeFamily } from './support/family-suite';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
const MODELS = ['gen4.5', 'gen4_turbo', 'veo3.1', 'veo3.1_fast'];
/** Seeded default prices: credits per second x 100 quota units. */
const PRICE = { 'gen4.5': 1200, gen4_turbo: 500, 'veo3.1_fast': 1500 };
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200, 3)]);
const DATA_URI = `data:image/png;base64,${PNG.toString('base64')}`;
const NO_CREDITS = { error: 'You do not have enough credits to run this task.' };

/** Runway (platform `runway`) against a fake that speaks its protocol, on both surfaces. */
describeFamily<RunwayEmulatorServer>({
  title: 'runway family',
  platform: 'runway',
  startFake: startRunwayEmulator,
  channel: { name: 'runway-main', models: MODELS },
  quota: QUOTA,
  pace: { rounds: 6, stepMs: 7_000 },
  submitsOf: (fake) => fake.submits().length,
  listing: {
    label: { en: 'Runway', 'zh-CN': 'Runway' },
    models: ['gen4.5', 'gen4_turbo', 'veo3.1', 'veo3.1_fast', 'gemini_omni_flash', 'aleph2'],
    settings: [{ name: 'poll_interval_ms' }, { name: 'max_concurrency' }, { name: 'usd_per_unit' }],
  },
  refusals: [
    { form: 'both', name: 'gen4_turbo without a first frame', param: 'input_reference', body: { model: 'gen4_turbo', prompt: 'p' } },
    { form: 'both', name: 'text-to-video without a prompt', param: 'prompt', body: { model: 'gen4.5' } },
    { form: 'both', name: 'gen4.5 for 11 s', param: 'duration', body: { model: 'gen4.5', prompt: 'p', duration: 11 } },
    { form: 'both', name: 'veo3.1 for 5 s, as seconds', param: 'seconds', body: { model: 'veo3.1', prompt: 'p', seconds: '5' } },
    {
      form: 'both',
      name: 'a gen4.5 text-to-video size it does not make',
      param: 'size',
      body: { model: 'gen4.5', prompt: 'p', size: '960x960' },
    },
    { form: 'both', name: '1080p on gen4.5', param: 'resolution', body: { model: 'gen4.5', prompt: 'p', resolution: '1080p' } },
    { form: 'both', name: '21:9 on veo3.1', param: 'aspect_ratio', body: { model: 'veo3.1', prompt: 'p', aspect_ratio: '21:9' } },
    {
      form: 'both',
      name: 'a last frame on gen4.5',
      param: 'last_frame',
      body: { model: 'gen4.5', prompt: 'p', input_reference: DATA_URI, last_frame: DATA_URI },
    },
    {
      form: 'both',
      name: 'a negative prompt on gen4_turbo',
      param: 'negative_prompt',
      body: { model: 'gen4_turbo', input_reference: DATA_URI, negative_prompt: 'x' },
    },
    {
      form: 'both',
      name: 'an http (not https) first frame',
      param: 'input_reference',
      body: { model: 'gen4_turbo', input_reference: 'http://cdn.example.com/a.png' },
    },
    { form: 'both', name: 'a seed out of range', param: 'seed', body: { model: 'gen4.5', prompt: 'p', seed: 4294967296 } },
    {
      form: 'both',
      name: 'a metadata key the gateway sets',
      param: 'metadata.ratio',
      body: { model: 'gen4.5', prompt: 'p', metadata: { ratio: '1280:720' } },
    },
  ],
  failures: [
    ['a failure', { status: 'FAILED' as const, failureCode: 'INTERNAL' }, 'generation failed: INTERNAL: provider internal error'] as const,
    [
      'moderation',
      { status: 'FAILED' as const, failureCode: 'SAFETY.INPUT.TEXT' },
      'content moderation failed: SAFETY.INPUT.TEXT',
    ] as const,
  ].map(([name, step, reason]) => ({
    name,
    arrange: (fake: RunwayEmulatorServer) => fake.scriptNext(['PENDING', step]),
    body: { model: 'gen4.5', prompt: 'a storm', seconds: '5' },
    reason,
    hidden: /10\.0\.0\.7/,
  })),
  submitFaults: [
    {
      name: 'a validation 400, naming only the issue',
      arrange: (fake) =>
        fake.failNextSubmit({
          status: 400,
          body: {
            error: 'Validation of body failed at http://10.0.0.9',
            issues: [{ code: 'invalid_type', path: ['promptImage'], message: 'Invalid input key_abc' }],
          },
        }),
      body: { model: 'gen4.5', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: invalid_type: the provider refused the input (param: promptImage)',
      hidden: /10\.0\.0\.9|key_abc/,
    },
    {
      name: 'a 429, with its Retry-After',
      arrange: (fake) => fake.failNextSubmit({ status: 429, headers: { 'retry-after': '9' }, body: { error: 'Too many requests' } }),
      body: { model: 'gen4.5', prompt: 'p' },
      status: 429,
      retryAfter: '9',
    },
    {
      name: 'no credits on the only channel, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 400, body: NO_CREDITS }),
      body: { model: 'gen4.5', prompt: 'p' },
      status: 503,
      hidden: /credits to run/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, flatTask, balance } = t;
    const lastSubmit = () => t.fake.submits().at(-1)!;
    const expectVideo = async (taskId: string) => {
      const data = await t.expectVideo(taskId);
      // The gateway's own signed link, served without a key; the provider's link never shows.
      expect(data.result_url).toMatch(new RegExp(`^${t.gw.url}/v1/videos/${taskId}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      const signed = await t.gw.http.get(data.result_url.slice(t.gw.url.length)).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(signed.body as Buffer, t.fake.videoBytes)).toBe(0);
    };
    it('text-to-video on /v1/videos: gen4.5 sent to text_to_video with the key and X-Runway-Version, charged per second, video served', async () => {
      const before = await balance();
      const res = await flat({ model: 'gen4.5', prompt: 'a lighthouse at dusk', seconds: '6', size: '720x1280', seed: 42 }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'gen4.5', status: 'queued' });
      const sent = lastSubmit();
      expect(sent.path).toBe('/v1/text_to_video');
      expect(sent.headers).toMatchObject({ authorization: `Bearer ${t.fake.apiKey}`, 'x-runway-version': '2024-11-06' });
      expect(sent.json).toEqual({ model: 'gen4.5', promptText: 'a lighthouse at dusk', ratio: '720:1280', duration: 6, seed: 42 });
      expect(await balance()).toEqual({
        quota: before.quota - 6 * PRICE['gen4.5'],
        used_quota: before.used_quota + 6 * PRICE['gen4.5'],
      });
      await expectVideo(res.body.id);
      // The size it was sent, though Runway does not report one.
      expect((await flatTask(res.body.id)).size).toBe('720x1280');
      // Every query carried the version header too (the fake refuses one without it).
      expect(
        t.fake.requests.filter((r) => r.path.startsWith('/v1/tasks/')).every((r) => r.headers['x-runway-version'] === '2024-11-06'),
      ).toBe(true);
    });

    it('image-to-video on /v1/videos (multipart file part): gen4_turbo gets the image as a data URI', async () => {
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'gen4_turbo')
        .field('prompt', 'she turns to the sea')
        .field('seconds', '10')
        .field('size', '960x960')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      const sent = lastSubmit();
      expect(sent.path).toBe('/v1/image_to_video');
      expect(sent.json).toEqual({
        model: 'gen4_turbo',
        promptText: 'she turns to the sea',
        ratio: '960:960',
        duration: 10,
        promptImage: DATA_URI,
      });
      await expectVideo(res.body.id);
    });

    it('text-to-video on /v1/video/generations: gen4.5 with aspect_ratio and metadata passed as it is', async () => {
      const res = await unified({
        model: 'gen4.5',
        prompt: 'waves',
        duration: 5,
        aspect_ratio: '16:9',
        resolution: '720p',
        metadata: { contentModeration: { publicFigureThreshold: 'low' } },
      }).expect(200);
      expect(lastSubmit().json).toEqual({
        model: 'gen4.5',
        promptText: 'waves',
        ratio: '1280:720',
        duration: 5,
        contentModeration: { publicFigureThreshold: 'low' },
      });
      await expectVideo(res.body.id);
    });

    it('image-to-video on /v1/video/generations: veo3.1_fast with first and last frames, audio priced', async () => {
      const before = await balance();
      const res = await unified({
        model: 'veo3.1_fast',
        prompt: 'slow dolly in',
        input_reference: DATA_URI,
        last_frame: 'https://cdn.example.com/last.png',
        duration: 8,
        size: '1080x1920',
        negative_prompt: 'blur',
      }).expect(200);
      expect(lastSubmit().json).toEqual({
        model: 'veo3.1_fast',
        promptText: 'slow dolly in',
        ratio: '1080:1920',
        duration: 8,
        negativePrompt: 'blur',
        promptImage: [
          { uri: DATA_URI, position: 'first' },
          { uri: 'https://cdn.example.com/last.png', position: 'last' },
        ],
      });
      expect((await balance()).quota).toBe(before.quota - 8 * PRICE['veo3.1_fast']);
      await expectVideo(res.body.id);
    });
  },
});

describeOnSqlite('runway family: a credit error on submit moves to the next channel', (kind) => {
  let gw: TestGateway;
  let broke: RunwayEmulatorServer;
  let funded: RunwayEmulatorServer;

  beforeAll(async () => {
    [broke, funded] = await Promise.all([startRunwayEmulator({ apiKey: 'key_broke' }), startRunwayEmulator({ apiKey: 'key_funded' })]);
    gw = await startGateway(kind);
    await gw.createChannel({
      name: 'runway-broke',
      platform: 'runway',
      base_url: broke.url,
      api_key: broke.apiKey,
      models: MODELS,
      priority: 10,
    });
    await gw.createChannel({
      name: 'runway-funded',
      platform: 'runway',
      base_url: funded.url,
      api_key: funded.apiKey,
      models: MODELS,
      priority: 0,
    });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([broke?.close(), funded?.close()]);
  });

  it('charges once and runs the task on the second channel', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    broke.failNextSubmit({ status: 400, body: NO_CREDITS });
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gen4.5', prompt: 'p', seconds: '5' })
      .expect(200);
    expect(broke.submits()).toHaveLength(1);
    expect(funded.submits()).toHaveLength(1);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 5 * PRICE['gen4.5'], used_quota: 5 * PRICE['gen4.5'] });
    expect(res.body.status).toBe('queued');
  });
});

describeOnSqlite('runway family: the embedded simulator', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('its seeded channel serves gen4.5 to the sample video; reject, busy and credits prompts are a 400, a 429 and a 503, none charged', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const auth = `Bearer ${key}`;
    const created = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', auth)
      .send({ model: 'gen4.5', prompt: 'a kite', duration: 5 })
      .expect(200);
    const id = created.body.id ?? created.body.data?.task_id;
    let data = { status: '' };
    for (let round = 0; round < 6 && data.status !== 'SUCCESS'; round++) {
      gw.clock.advance(7_000);
      await gw.sync();
      data = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', auth).expect(200)).body.data;
    }
    expect(data.status).toBe('SUCCESS');
    const content = await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', auth).buffer(true).parse(binaryBody).expect(200);
    // The simulator's video, made to what was asked (so settled at what was charged).
    expect((content.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
    const charged = await gw.balance(userId);
    expect(charged).toEqual({ quota: QUOTA - 5 * PRICE['gen4.5'], used_quota: 5 * PRICE['gen4.5'] });
    await gw.http.post('/v1/videos').set('Authorization', auth).send({ model: 'gen4.5', prompt: 'x [simulate:reject]' }).expect(400);
    await gw.http.post('/v1/videos').set('Authorization', auth).send({ model: 'gen4.5', prompt: 'x [simulate:busy]' }).expect(429);
    await gw.http.post('/v1/videos').set('Authorization', auth).send({ model: 'gen4.5', prompt: 'x [simulate:credits]' }).expect(503);
    expect(await gw.balance(userId)).toEqual(charged);
  });
});
