import { describeEmbeddedSimulator } from './support/embedded-simulator';
import { describeFamily } from './support/family-suite';
import { startXaiEmulator, XaiEmulatorServer } from './support/xai-emulator';
import { SAMPLE_PNG as PNG, SAMPLE_PNG_DATA_URI as DATA_URI } from './support/sample-image';

const QUOTA = 10_000_000;
const MODELS = ['grok-imagine-video', 'grok-imagine-video-1.5'];
/** Seeded list prices, quota units per second (credits of 0.01 USD x 100). */
const PRICE = { 'grok-imagine-video': { '480p': 500, '720p': 700 }, 'grok-imagine-video-1.5': { '1080p': 2500, '720p': 1400 } };

/** xAI (platform `xai`) against its emulator on loopback, on both surfaces. */
describeFamily<XaiEmulatorServer>({
  title: 'xai family',
  platform: 'xai',
  startFake: startXaiEmulator,
  channel: { name: 'xai-main', models: MODELS },
  quota: QUOTA,
  pace: { rounds: 5, stepMs: 6_000 },
  submitsOf: (fake) => fake.creates.length,
  listing: { models: MODELS, default_base_url: 'https://api.x.ai' },
  refusals: [
    { form: 'unified', param: 'resolution', body: { model: 'grok-imagine-video', prompt: 'p', resolution: '1080p' } },
    { form: 'flat', param: 'seconds', body: { model: 'grok-imagine-video', prompt: 'p', seconds: '16' } },
    { form: 'unified', param: 'duration', body: { model: 'grok-imagine-video', prompt: 'p', duration: 0 } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'grok-imagine-video', prompt: 'p', aspect_ratio: '21:9' } },
    { form: 'flat', param: 'size', body: { model: 'grok-imagine-video', prompt: 'p', size: '1000x1000' } },
    { form: 'unified', param: 'prompt', body: { model: 'grok-imagine-video', input_reference: DATA_URI } },
    {
      form: 'unified',
      param: 'last_frame',
      body: { model: 'grok-imagine-video', prompt: 'p', input_reference: DATA_URI, last_frame: DATA_URI },
    },
    { form: 'unified', param: 'seed', body: { model: 'grok-imagine-video', prompt: 'p', seed: 1 } },
    { form: 'unified', param: 'negative_prompt', body: { model: 'grok-imagine-video', prompt: 'p', negative_prompt: 'blur' } },
    {
      form: 'unified',
      param: 'metadata.storage_options',
      body: { model: 'grok-imagine-video', prompt: 'p', metadata: { storage_options: { public_url: true } } },
    },
    {
      form: 'unified',
      param: 'input_reference',
      body: { model: 'grok-imagine-video', prompt: 'p', input_reference: 'ftp://x.example/a.png' },
    },
  ],
  failures: [
    ['a failure', { failed: 'internal_error' } as const, 'generation failed: internal_error: provider internal error'] as const,
    [
      'moderation (respect_moderation: false)',
      'moderated' as const,
      'content moderation failed: the video did not pass the provider moderation',
    ] as const,
    ['an expiry', 'expired' as const, 'upstream timeout: the provider expired the request'] as const,
  ].map(([name, end, reason]) => ({
    name,
    arrange: (fake: XaiEmulatorServer) => fake.scriptNext(['empty', 'pending', end]),
    body: { model: 'grok-imagine-video', prompt: 'a storm', seconds: '5' },
    reason,
    hidden: /10\.0\.0\.7/,
  })),
  submitFaults: [
    {
      name: 'a 400, naming no xAI text',
      arrange: (fake) =>
        fake.failNextSubmit({ status: 400, body: { code: 'Client specified an invalid argument', error: 'bad value at http://10.0.0.9' } }),
      body: { model: 'grok-imagine-video', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: the provider refused the input (HTTP 400)',
      hidden: /10\.0\.0\.9|slow down|team 42/,
    },
    {
      name: 'a 429, with its Retry-After',
      arrange: (fake) =>
        fake.failNextSubmit({ status: 429, headers: { 'retry-after': '7' }, body: { code: 'Too many requests', error: 'slow down' } }),
      body: { model: 'grok-imagine-video', prompt: 'p' },
      status: 429,
      retryAfter: '7',
      hidden: /10\.0\.0\.9|slow down|team 42/,
    },
    {
      name: 'an empty balance (429), a 503',
      arrange: (fake) =>
        fake.failNextSubmit({
          status: 429,
          body: { error: 'Your team 42 has either used all available credits or reached its monthly spending limit.' },
        }),
      body: { model: 'grok-imagine-video', prompt: 'p' },
      status: 503,
      hidden: /10\.0\.0\.9|slow down|team 42/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, balance } = t;
    const lastCreate = () => t.fake.creates.at(-1)!;
    const expectVideo = (taskId: string) => t.expectVideo(taskId, { platform: '' });
    it('text-to-video on /v1/videos: grok-imagine-video with the Bearer key, charged per second, the video through /content', async () => {
      const before = await balance();
      const res = await flat({
        model: 'grok-imagine-video',
        prompt: 'a hummingbird at a red flower',
        seconds: '6',
        size: '1280x720',
      }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'grok-imagine-video', status: 'queued' });
      expect(lastCreate().request.headers.authorization).toBe(`Bearer ${t.fake.apiKey}`);
      expect(lastCreate().body).toEqual({
        model: 'grok-imagine-video',
        prompt: 'a hummingbird at a red flower',
        duration: 6,
        resolution: '720p',
        aspect_ratio: '16:9',
      });
      const cost = 6 * PRICE['grok-imagine-video']['720p'];
      expect(await balance()).toEqual({ quota: before.quota - cost, used_quota: before.used_quota + cost });
      await expectVideo(res.body.id);
      // The first query was a 202 with no body, then a pending 202: neither is an error.
      const queries = t.fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/'));
      expect(queries.every((r) => r.headers.authorization === `Bearer ${t.fake.apiKey}`)).toBe(true);
      expect(t.fake.requests.filter((r) => r.path.startsWith('/vidgen/')).every((r) => r.headers.authorization === undefined)).toBe(true);
    });

    it('image-to-video on /v1/videos from a multipart file part: sent as image.url with a data URI, audio off', async () => {
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'grok-imagine-video-1.5')
        .field('prompt', 'the flower opens')
        .field('seconds', '5')
        .field('resolution', '1080p')
        .field('audio', 'false')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      expect(lastCreate().body).toEqual({
        model: 'grok-imagine-video-1.5',
        prompt: 'the flower opens',
        duration: 5,
        resolution: '1080p',
        image: { url: DATA_URI },
        generate_audio: false,
      });
      await expectVideo(res.body.id);
    });

    it('text-to-video on /v1/video/generations: defaults from the entry (8 s, 480p, 16:9), metadata passed as it is', async () => {
      const before = await balance();
      const res = await unified({ model: 'grok-imagine-video', prompt: 'waves', metadata: { user: 'customer-42' } }).expect(200);
      expect(lastCreate().body).toEqual({
        user: 'customer-42',
        model: 'grok-imagine-video',
        prompt: 'waves',
        duration: 8,
        resolution: '480p',
        aspect_ratio: '16:9',
      });
      expect((await balance()).quota).toBe(before.quota - 8 * PRICE['grok-imagine-video']['480p']);
      await expectVideo(res.body.id);
    });

    it('image-to-video on /v1/video/generations: a URL first frame goes as it is, with the aspect ratio asked', async () => {
      const before = await balance();
      const res = await unified({
        model: 'grok-imagine-video-1.5',
        prompt: 'slow push in',
        input_reference: 'https://cdn.example.com/first.png',
        duration: 4,
        resolution: '720p',
        aspect_ratio: '9:16',
      }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'grok-imagine-video-1.5',
        prompt: 'slow push in',
        duration: 4,
        resolution: '720p',
        aspect_ratio: '9:16',
        image: { url: 'https://cdn.example.com/first.png' },
      });
      expect((await balance()).quota).toBe(before.quota - 4 * PRICE['grok-imagine-video-1.5']['720p']);
      await expectVideo(res.body.id);
    });

    it('a cancel of a task xAI has is a 409 cancel_not_supported on both surfaces; nothing changes and the video still comes', async () => {
      const before = await balance();
      const res = await flat({ model: 'grok-imagine-video', prompt: 'a kite', seconds: '5' }).expect(200);
      const charged = await balance();
      expect(charged.quota).toBeLessThan(before.quota);
      const flatCancel = await auth(t.gw.http.post(`/v1/videos/${res.body.id}/cancel`)).expect(409);
      expect(flatCancel.body.error).toMatchObject({ code: 'cancel_not_supported' });
      const unifiedCancel = await auth(t.gw.http.post(`/v1/video/generations/${res.body.id}/cancel`)).expect(409);
      expect(unifiedCancel.body).toMatchObject({ code: 'cancel_not_supported' });
      expect(t.fake.requests.filter((r) => r.path.includes('cancel') || r.method === 'DELETE')).toHaveLength(0);
      expect(await balance()).toEqual(charged);
      await expectVideo(res.body.id);
    });

    it('an operator adds grok-imagine-video-1.5-lite as a catalog entry: it reaches xAI as its entry says', async () => {
      await t.gw.admin
        .post('/api/admin/models', {
          id: 'grok-imagine-video-1.5-lite',
          modes: ['text-to-video'],
          durations: [5, 10],
          default_duration: 10,
          resolutions: ['720p'],
          aspect_ratios: ['1:1'],
          audio: 'none',
          prices: [{ resolution: '720p', unit: 'second', price: 600 }],
          routes: [{ platform: 'xai', upstream_model: 'grok-imagine-video-1.5-lite' }],
        })
        .expect(201);
      const channels = (await t.gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ id: number; name: string }>;
      await t.gw.admin
        .patch(`/api/admin/channels/${channels.find((c) => c.name === 'xai-main')!.id}`, {
          models: [...MODELS, 'grok-imagine-video-1.5-lite'],
        })
        .expect(200);
      const before = await balance();
      const res = await unified({ model: 'grok-imagine-video-1.5-lite', prompt: 'a red kite' }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'grok-imagine-video-1.5-lite',
        prompt: 'a red kite',
        duration: 10,
        resolution: '720p',
        aspect_ratio: '1:1',
        generate_audio: false,
      });
      expect((await balance()).quota).toBe(before.quota - 10 * 600);
      await unified({ model: 'grok-imagine-video-1.5-lite', prompt: 'p', duration: 7 }).expect(400);
      await expectVideo(res.body.id);
    });

    it("a channel key not of xAI's form is a 400 naming api_key", async () => {
      const res = await t.gw.admin
        .post('/api/admin/channels', {
          name: 'xai-wrong',
          platform: 'xai',
          base_url: 'https://api.x.ai',
          api_key: 'sk-not-an-xai-key',
          models: MODELS,
        })
        .expect(400);
      expect(res.body.error).toMatchObject({ param: 'api_key' });
      const channels = (await t.gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ id: number; name: string }>;
      const id = channels.find((c) => c.name === 'xai-main')!.id;
      expect((await t.gw.admin.patch(`/api/admin/channels/${id}`, { api_key: 'Bearer xai-abc' }).expect(400)).body.error).toMatchObject({
        param: 'api_key',
      });
    });
  },
});

describeEmbeddedSimulator(
  'xai family: the embedded simulator',
  QUOTA,
  'its seeded channel serves both builtin models to the sample video; moderation, busy and credits prompts answer as xAI would',
  async (s) => {
    const ids = await s.submitAll([
      { model: 'grok-imagine-video', prompt: 'a kite', duration: 2 },
      { model: 'grok-imagine-video-1.5', prompt: 'a kite', duration: 2, input_reference: DATA_URI, resolution: '1080p' },
    ]);
    const before = await s.gw.balance(s.userId);
    const moderated = (await s.post({ model: 'grok-imagine-video', prompt: 'x [simulate:moderation]', duration: 2 }).expect(200)).body.id;
    await s.run(6, 7_000);
    await s.expectDelivered(ids, ids[0]);
    expect(await s.task(moderated)).toMatchObject({ status: 'FAILURE', fail_reason: expect.stringMatching(/^content moderation failed/) });
    expect(await s.gw.balance(s.userId)).toEqual(before);
    await s.expectBusyAndCredits('grok-imagine-video');
    expect(await s.gw.balance(s.userId)).toEqual(before);
  },
);
