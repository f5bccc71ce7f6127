import { describeEmbeddedSimulator } from './support/embedded-simulator';
import { describeFamily } from './support/family-suite';
import { startViduEmulator, ViduEmulatorServer } from './support/vidu-emulator';
import { SAMPLE_PNG as PNG, SAMPLE_PNG_DATA_URI as DATA_URI } from './support/sample-image';

const QUOTA = 10_000_000;
const MODELS = ['viduq3-pro', 'viduq3-turbo', 'viduq2-pro', 'viduq2-turbo'];
/** Seeded list prices, quota units per second (credits of 0.01 USD x 100). */
const PRICE = {
  'viduq3-pro': { '1080p': 1600 },
  'viduq3-turbo': { '720p': 390 },
  'viduq2-pro': { '720p': 1000 },
  'viduq2-turbo': { '1080p': 1000 },
};

/** Vidu (platform `vidu`) against its emulator on loopback, on both surfaces. */
describeFamily<ViduEmulatorServer>({
  title: 'vidu family',
  platform: 'vidu',
  startFake: startViduEmulator,
  channel: { name: 'vidu-main', models: MODELS },
  quota: QUOTA,
  pace: { rounds: 6, stepMs: 6_000 },
  submitsOf: (fake) => fake.creates.length,
  listing: { label: { en: 'Vidu', 'zh-CN': 'Vidu 生数' }, models: MODELS, default_base_url: 'https://api.vidu.com' },
  refusals: [
    { form: 'flat', param: 'input_reference', body: { model: 'viduq2-pro', prompt: 'no image' } },
    { form: 'flat', param: 'seconds', body: { model: 'viduq3-pro', prompt: 'p', seconds: '17' } },
    { form: 'unified', param: 'duration', body: { model: 'viduq2-turbo', input_reference: DATA_URI, duration: 11 } },
    { form: 'unified', param: 'resolution', body: { model: 'viduq3-pro', prompt: 'p', resolution: '4k' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'viduq3-pro', prompt: 'p', aspect_ratio: '21:9' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'viduq3-turbo', input_reference: DATA_URI, aspect_ratio: '16:9' } },
    { form: 'flat', param: 'size', body: { model: 'viduq3-pro', prompt: 'p', size: '1000x1000' } },
    { form: 'unified', param: 'last_frame', body: { model: 'viduq3-pro', prompt: 'p', last_frame: DATA_URI } },
    { form: 'unified', param: 'negative_prompt', body: { model: 'viduq3-pro', prompt: 'p', negative_prompt: 'blur' } },
    {
      form: 'unified',
      param: 'metadata.callback_url',
      body: { model: 'viduq3-pro', prompt: 'p', metadata: { callback_url: 'https://x.example/cb' } },
    },
    { form: 'unified', param: 'audio', body: { model: 'viduq3-pro', prompt: 'p', audio: 'yes' } },
    { form: 'unified', param: 'input_reference', body: { model: 'viduq2-turbo', input_reference: 'data:image/gif;base64,R0lGODlh' } },
    { form: 'flat', param: 'prompt', body: { model: 'viduq3-turbo' } },
  ],
  failures: [
    ...[
      ['a failure', 'InternalServiceFailure', 'generation failed: InternalServiceFailure: provider internal error'],
      ['output moderation', 'CreationPolicyViolation', 'content moderation failed: CreationPolicyViolation'],
    ].map(([name, errCode, reason]) => ({
      name,
      arrange: (fake: ViduEmulatorServer) => fake.scriptNext(['queueing', 'processing', { failed: errCode }]),
      body: { model: 'viduq3-turbo', prompt: 'a storm', seconds: '5' },
      reason,
      hidden: /10\.0\.0\.7/,
    })),
    {
      name: 'a submit refused with AuditSubmitIllegal',
      arrange: (fake) => fake.failNextSubmit({ status: 400, reason: 'AuditSubmitIllegal' }),
      body: { model: 'viduq3-turbo', prompt: 'something unsafe' },
      atSubmit: true,
      reason: expect.stringMatching(/^content moderation failed/),
      code: 'content_moderation_failed',
    },
  ],
  submitFaults: [
    {
      name: 'FieldInvalid, a 400 naming only the code',
      arrange: (fake) => fake.failNextSubmit({ status: 400, reason: 'FieldInvalid' }),
      body: { model: 'viduq3-turbo', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: FieldInvalid: a field is invalid',
      hidden: /10\.0\.0\.9|account 42|simulated/,
    },
    {
      name: 'QuotaExceeded, a 429 with Retry-After',
      arrange: (fake) => fake.failNextSubmit({ status: 429, reason: 'QuotaExceeded', headers: { 'retry-after': '7' } }),
      body: { model: 'viduq3-turbo', prompt: 'p' },
      status: 429,
      retryAfter: '7',
      hidden: /10\.0\.0\.9|account 42|simulated/,
    },
    {
      name: 'CreditInsufficient, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 400, reason: 'CreditInsufficient' }),
      body: { model: 'viduq3-turbo', prompt: 'p' },
      status: 503,
      hidden: /10\.0\.0\.9|account 42|simulated/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, balance, ledgerOf } = t;
    const lastCreate = () => t.fake.creates.at(-1)!;
    const expectVideo = (taskId: string) => t.expectVideo(taskId, { platform: '' });
    it('text-to-video on /v1/videos: viduq3-turbo to text2video with Authorization: Token, charged per second, the video through /content', async () => {
      const before = await balance();
      const res = await flat({ model: 'viduq3-turbo', prompt: 'a paper lantern over a river', seconds: '5', size: '1280x720' }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'viduq3-turbo', status: 'queued' });
      expect(lastCreate().endpoint).toBe('text2video');
      expect(lastCreate().request.headers.authorization).toBe(`Token ${t.fake.apiKey}`);
      expect(lastCreate().body).toEqual({
        model: 'viduq3-turbo',
        duration: 5,
        resolution: '720p',
        prompt: 'a paper lantern over a river',
        aspect_ratio: '16:9',
      });
      expect(await balance()).toEqual({
        quota: before.quota - 5 * PRICE['viduq3-turbo']['720p'],
        used_quota: before.used_quota + 5 * PRICE['viduq3-turbo']['720p'],
      });
      await expectVideo(res.body.id);
      // Every call carried Vidu's Token scheme; the CDN download none.
      const api = t.fake.requests.filter((r) => r.path.startsWith('/ent/v2/'));
      expect(api.every((r) => r.headers.authorization === `Token ${t.fake.apiKey}`)).toBe(true);
      expect(t.fake.requests.filter((r) => r.path.startsWith('/cdn/')).every((r) => r.headers.authorization === undefined)).toBe(true);
    });

    it('image-to-video on /v1/videos from a multipart file part: viduq2-turbo gets it as a data URI on img2video', async () => {
      const before = await balance();
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'viduq2-turbo')
        .field('prompt', 'the lantern rises')
        .field('seconds', '4')
        .field('size', '1920x1080')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      expect(lastCreate().endpoint).toBe('img2video');
      expect(lastCreate().body).toEqual({
        model: 'viduq2-turbo',
        duration: 4,
        resolution: '1080p',
        prompt: 'the lantern rises',
        images: [DATA_URI],
      });
      expect((await balance()).quota).toBe(before.quota - 4 * PRICE['viduq2-turbo']['1080p']);
      await expectVideo(res.body.id);
    });

    it('text-to-video on /v1/video/generations: viduq3-pro with audio off, 9:16 at 1080p, seed and metadata passed as they are', async () => {
      const before = await balance();
      const res = await unified({
        model: 'viduq3-pro',
        prompt: 'rain on a tin roof',
        duration: 6,
        aspect_ratio: '9:16',
        resolution: '1080p',
        audio: false,
        seed: 42,
        metadata: { movement_amplitude: 'small' },
      }).expect(200);
      expect(lastCreate().body).toEqual({
        movement_amplitude: 'small',
        model: 'viduq3-pro',
        duration: 6,
        resolution: '1080p',
        prompt: 'rain on a tin roof',
        aspect_ratio: '9:16',
        seed: 42,
        audio: false,
      });
      expect((await balance()).quota).toBe(before.quota - 6 * PRICE['viduq3-pro']['1080p']);
      await expectVideo(res.body.id);
    });

    it('image-to-video on /v1/video/generations with start and end frames: viduq2-pro on start-end2video, audio as bgm', async () => {
      const res = await unified({
        model: 'viduq2-pro',
        prompt: 'the door opens',
        input_reference: 'https://cdn.example.com/start.png',
        last_frame: DATA_URI,
        duration: 8,
        audio: true,
      }).expect(200);
      expect(lastCreate().endpoint).toBe('start-end2video');
      expect(lastCreate().body).toEqual({
        model: 'viduq2-pro',
        duration: 8,
        resolution: '720p',
        prompt: 'the door opens',
        bgm: true,
        images: ['https://cdn.example.com/start.png', DATA_URI],
      });
      await expectVideo(res.body.id);
    });

    it('cancels a task Vidu has not started (POST .../cancel, refunded in full); a running one is a 409, Vidu not asked', async () => {
      const before = await balance();
      t.fake.scriptNext(['created']);
      const queued = await flat({ model: 'viduq3-turbo', prompt: 'a kite', seconds: '5' }).expect(200);
      const cancelled = await auth(t.gw.http.post(`/v1/video/generations/${queued.body.id}/cancel`)).expect(200);
      expect(cancelled.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
      const sent = t.fake.cancels().at(-1)!;
      expect(sent.headers.authorization).toBe(`Token ${t.fake.apiKey}`);
      expect(await balance()).toEqual(before);
      expect(await ledgerOf(queued.body.id)).toEqual(['consume', 'refund']);

      t.fake.scriptNext(['processing']);
      const running = await flat({ model: 'viduq3-turbo', prompt: 'a kite', seconds: '5' }).expect(200);
      t.gw.clock.advance(6_000);
      await t.gw.sync();
      const cancels = t.fake.cancels().length;
      const refused = await auth(t.gw.http.post(`/v1/videos/${running.body.id}/cancel`)).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'cancel_not_supported' });
      expect(t.fake.cancels()).toHaveLength(cancels);
    });

    it('an operator adds viduq2 (text-to-video, bgm) as a catalog entry: it reaches Vidu as its entry and route say', async () => {
      await t.gw.admin
        .post('/api/admin/models', {
          id: 'viduq2',
          modes: ['text-to-video'],
          durations: { min: 1, max: 10 },
          default_duration: 4,
          resolutions: ['540p', '720p'],
          aspect_ratios: ['1:1', '16:9'],
          audio: 'optional',
          prices: [{ resolution: '*', unit: 'second', price: 300, audio_price: 300 }],
          routes: [{ platform: 'vidu', upstream_model: 'viduq2', options: { audio_field: 'bgm' } }],
        })
        .expect(201);
      const refused = await t.gw.admin
        .post('/api/admin/models', {
          id: 'viduq2-x',
          modes: ['text-to-video'],
          durations: [5],
          default_duration: 5,
          resolutions: ['720p'],
          aspect_ratios: ['16:9'],
          audio: 'none',
          prices: [{ resolution: '*', unit: 'second', price: 300 }],
          routes: [{ platform: 'vidu', upstream_model: 'viduq2', options: { audio_field: 'sound' } }],
        })
        .expect(400);
      expect(JSON.stringify(refused.body)).toContain('audio_field');
      const channels = (await t.gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ id: number; name: string }>;
      const channel = channels.find((c) => c.name === 'vidu-main')!;
      await t.gw.admin.patch(`/api/admin/channels/${channel.id}`, { models: [...MODELS, 'viduq2'] }).expect(200);
      const before = await balance();
      const res = await unified({ model: 'viduq2', prompt: 'a red kite', audio: true }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'viduq2',
        duration: 4,
        resolution: '540p',
        prompt: 'a red kite',
        aspect_ratio: '1:1',
        bgm: true,
      });
      expect((await balance()).quota).toBe(before.quota - 4 * 300);
      await expectVideo(res.body.id);
    });

    it('refuses a channel key pasted with its scheme', async () => {
      const res = await t.gw.admin
        .post('/api/admin/channels', {
          name: 'vidu-pasted',
          platform: 'vidu',
          base_url: 'https://api.vidu.com',
          api_key: 'Token vda_abc123',
          models: MODELS,
        })
        .expect(400);
      expect(res.body.error).toMatchObject({ param: 'api_key' });
      expect(res.body.error.message).not.toContain('vda_abc123');
      // The emulator, like Vidu, refuses a Bearer key.
      const bearer = await fetch(`${t.fake.url}/ent/v2/tasks/1/creations`, { headers: { authorization: `Bearer ${t.fake.apiKey}` } });
      expect(bearer.status).toBe(401);
    });
  },
});

describeEmbeddedSimulator(
  'vidu family: the embedded simulator',
  QUOTA,
  'its seeded channel serves every builtin model to the sample video; reject, busy and credits prompts answer as Vidu would, nothing kept',
  async (s) => {
    const ids = await s.submitAll([
      { model: 'viduq3-pro', prompt: 'a kite', duration: 2 },
      { model: 'viduq3-turbo', prompt: 'a kite', duration: 2, input_reference: DATA_URI },
      { model: 'viduq2-pro', prompt: 'a kite', duration: 2, input_reference: DATA_URI, last_frame: DATA_URI },
      { model: 'viduq2-turbo', prompt: 'a kite', duration: 2, input_reference: DATA_URI },
    ]);
    await s.run(6, 7_000);
    await s.expectDelivered(ids, ids[0]);
    await s.expectMarkersKeepNothing('viduq3-turbo');
  },
);
