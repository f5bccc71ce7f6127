import { readFileSync } from 'node:fs';
import { SAMPLE_IMAGE_PATH } from '../src/families/simulator-shared/sample-video';
import { binaryBody } from './support/binary-body';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { describeFamily, describeFamilyMoney, FamilyMoneySetup } from './support/family-suite';

const QUOTA = 1_000_000;
const PNG = readFileSync(SAMPLE_IMAGE_PATH);
const MODELS = ['kling-v2-6', 'kling-v2-5-turbo', 'kling-v2-1', 'kling-v2-1-master', 'kling-v1-6', 'kling-v3', 'kling-v3-omni'];
/** Kling 3's seeded prices per second: 720p (std) 8.4 credits, 1080p (pro) 11.2, with sound 16.8. */
const V3_720P = 840;
const V3_1080P = 1120;
const V3_1080P_SOUND = 1680;

/** The fake and its channel, on every database. */
const SETUP: FamilyMoneySetup<KlingEmulatorServer> = {
  platform: 'kling',
  startFake: startKlingEmulator,
  channel: { name: 'kling-main', models: MODELS, priority: 10 },
  quota: QUOTA,
  pace: { rounds: 5, stepMs: 15_000 },
};

/** Kling (platform `kling`): both surfaces, a JWT-signed fake upstream, the model rules, refunds and channel faults. */
describeFamily<KlingEmulatorServer>({
  title: 'kling family',
  ...SETUP,
  submitsOf: (fake) => fake.creates.length,
  listing: { label: { en: 'Kling', 'zh-CN': '可灵 Kling' }, models: MODELS },
  refusals: [
    { form: 'flat', param: 'input_reference', body: { model: 'kling-v2-1', prompt: 'no image' } },
    { form: 'flat', param: 'seconds', body: { model: 'kling-v2-5-turbo', prompt: 'p', seconds: '7' } },
    { form: 'unified', param: 'duration', body: { model: 'kling-v2-5-turbo', prompt: 'p', duration: 8 } },
    { form: 'unified', param: 'resolution', body: { model: 'kling-v2-6', prompt: 'p', resolution: '720p' } },
    { form: 'flat', param: 'size', body: { model: 'kling-v2-1-master', prompt: 'p', size: '1280x720' } },
    { form: 'flat', param: 'size', body: { model: 'kling-v2-5-turbo', prompt: 'p', size: '1000x1000' } },
    { form: 'unified', param: 'seed', body: { model: 'kling-v2-5-turbo', prompt: 'p', seed: 3 } },
    {
      form: 'unified',
      param: 'metadata.model_name',
      body: { model: 'kling-v2-5-turbo', prompt: 'p', metadata: { model_name: 'kling-v1' } },
    },
    { form: 'unified', param: 'metadata.sound', body: { model: 'kling-v2-5-turbo', prompt: 'p', metadata: { sound: 'on' } } },
    { form: 'unified', param: 'metadata.cfg_scale', body: { model: 'kling-v2-6', prompt: 'p', metadata: { cfg_scale: 0.5 } } },
    {
      form: 'unified',
      param: 'last_frame',
      body: {
        model: 'kling-v2-1-master',
        prompt: 'p',
        input_reference: 'http://127.0.0.1:9/a.png',
        last_frame: 'http://127.0.0.1:9/b.png',
      },
    },
    {
      form: 'unified',
      param: 'aspect_ratio',
      body: { model: 'kling-v1-6', prompt: 'p', input_reference: 'http://127.0.0.1:9/a.png', aspect_ratio: '16:9' },
    },
    {
      form: 'unified',
      param: 'input_reference',
      body: { model: 'kling-v1-6', prompt: 'p', input_reference: 'data:image/gif;base64,R0lGOD' },
    },
    { form: 'flat', param: 'prompt', body: { model: 'kling-v2-5-turbo' } },
    { form: 'unified', param: 'resolution', body: { model: 'kling-v1-6', prompt: 'p', resolution: '720p', metadata: { mode: 'pro' } } },
    { form: 'both', param: 'seconds', body: { model: 'kling-v3', prompt: 'p', seconds: '16' } },
    { form: 'unified', param: 'metadata.image_list', body: { model: 'kling-v3-omni', prompt: 'p', metadata: { image_list: [] } } },
    {
      form: 'unified',
      param: 'metadata.sound',
      body: {
        model: 'kling-v3-omni',
        prompt: 'p',
        metadata: { sound: 'on', video_list: [{ video_url: 'https://x.example/v.mp4', refer_type: 'feature' }] },
      },
    },
    {
      form: 'unified',
      param: 'metadata.multi_prompt',
      body: {
        model: 'kling-v3',
        prompt: 'p',
        duration: 10,
        metadata: { multi_shot: true, shot_type: 'customize', multi_prompt: [{ index: 1, prompt: 'a', duration: '5' }] },
      },
    },
  ],
  failures: [
    {
      name: 'a task Kling failed',
      arrange: (fake) => fake.scriptNext(['processing', { failed: 'Video generation failed at http://10.1.1.1/worker' }]),
      body: { model: 'kling-v2-5-turbo', prompt: 'a storm' },
      reason: 'generation failed',
      hidden: /10\.1\.1\.1/,
    },
    {
      name: 'an output Kling moderated',
      arrange: (fake) => fake.scriptNext(['processing', { failed: 'Failure to pass the risk control system' }]),
      body: { model: 'kling-v2-5-turbo', prompt: 'a storm' },
      surface: 'unified',
      reason: 'content moderation failed',
    },
    {
      name: 'a kling-v3 task Kling failed',
      arrange: (fake) => fake.scriptNext(['processing', { failed: 'Video generation failed' }]),
      body: { model: 'kling-v3', prompt: 'a storm', seconds: '4' },
      reason: 'generation failed',
    },
    {
      name: 'a kling-v3-omni output Kling moderated',
      arrange: (fake) => fake.scriptNext(['processing', { failed: 'Failure to pass the risk control system' }]),
      body: { model: 'kling-v3-omni', prompt: 'a storm', duration: 3 },
      surface: 'unified',
      reason: 'content moderation failed',
    },
    {
      name: 'a submit Kling refuses with 1301',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 1301 }),
      body: { model: 'kling-v2-5-turbo', prompt: 'something unsafe' },
      atSubmit: true,
      reason: 'content moderation failed',
    },
  ],
  submitFaults: [
    {
      name: '1201, a 400 naming only the code',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 1201 }),
      body: { model: 'kling-v2-5-turbo', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: 1201: invalid request parameters',
      hidden: /10\.0\.0\.9|invalid param/,
    },
    {
      name: '1303, a 429 with Retry-After',
      arrange: (fake) => fake.failNextSubmit({ status: 429, code: 1303, headers: { 'retry-after': '7' } }),
      body: { model: 'kling-v2-5-turbo', prompt: 'p' },
      status: 429,
      retryAfter: '7',
    },
    {
      name: '5000, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 500, code: 5000 }),
      body: { model: 'kling-v2-5-turbo', prompt: 'p' },
      status: 503,
    },
    {
      name: 'a balance error (1102) on its only channel, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 429, code: 1102 }),
      body: { model: 'kling-v2-5-turbo', prompt: 'p' },
      status: 503,
      hidden: /10\.0\.0\.5|Resource pack/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, flatTask, unifiedTask, balance, settle } = t;
    const content = (path: string, withKey = true) => {
      const req = t.gw.http.get(path).buffer(true).parse(binaryBody);
      return withKey ? auth(req) : req;
    };
    const lastCreate = () => t.fake.creates.at(-1)!;
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
      const token = t.fake.tokens.at(-1)!;
      expect(token.iss).toBe(t.fake.accessKey);
      expect(token.exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(1800);
      expect(token.nbf).toBeLessThan(token.exp);
      expect(JSON.stringify(lastCreate().request.headers)).not.toContain(t.fake.secretKey);
      // 720p list price 0.021 USD/s = 420 units/s.
      expect(await balance()).toEqual({ quota: before.quota - 5 * 420, used_quota: before.used_quota + 5 * 420 });
      await settle();
      const done = await flatTask(res.body.id);
      expect(done.status).toBe('completed');
      // The size it was sent, though Kling does not report one.
      expect(done.size).toBe('1280x720');
      expect(JSON.stringify(done)).not.toContain(t.fake.url);
      const bytes = await content(`/v1/videos/${res.body.id}/content`).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, t.fake.videoBytes)).toBe(0);
      const signed = new URL(done.metadata.url as string);
      const viaLink = await content(`${signed.pathname}${signed.search}`, false).expect(200);
      expect(Buffer.compare(viaLink.body as Buffer, t.fake.videoBytes)).toBe(0);
    });

    it('runs image-to-video on /v1/videos from a multipart file part: raw base64 upstream, queried on image2video', async () => {
      const res = await auth(t.gw.http.post('/v1/videos'))
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
      expect(t.fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/image2video/'))).toBe(true);
      const bytes = await content(`/v1/videos/${res.body.id}/content`).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, t.fake.videoBytes)).toBe(0);
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
      expect(JSON.stringify(done)).not.toContain(t.fake.url);
      const link = new URL(done.result_url as string);
      const bytes = await content(`${link.pathname}${link.search}`, false).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, t.fake.videoBytes)).toBe(0);
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

    it('runs kling-v3 on /v1/videos: 12 s with sound at 1080p on text2video, charged at the audio tier, its units kept', async () => {
      const before = await balance();
      const res = await flat({
        model: 'kling-v3',
        prompt: 'a lantern festival',
        seconds: '12',
        size: '1920x1080',
        metadata: { sound: 'on' },
      }).expect(200);
      expect(lastCreate().endpoint).toBe('text2video');
      expect(lastCreate().body).toEqual({
        model_name: 'kling-v3',
        mode: 'pro',
        duration: '12',
        prompt: 'a lantern festival',
        aspect_ratio: '16:9',
        sound: 'on',
      });
      expect(await balance()).toEqual({ quota: before.quota - 12 * V3_1080P_SOUND, used_quota: before.used_quota + 12 * V3_1080P_SOUND });
      await settle();
      expect((await flatTask(res.body.id)).status).toBe('completed');
      const bytes = await content(`/v1/videos/${res.body.id}/content`).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, t.fake.videoBytes)).toBe(0);
      // The emulator's units: 12 s x 0.8 (pro) x 1.5 (sound).
      const detail = (await t.gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
      expect(detail.provider_usage).toMatchObject({ unit: 'credits', amount: 14.4 });
    });

    it('runs kling-v3-omni on /v1/video/generations from a first and a last frame: omni-video with image_list, queried there', async () => {
      const before = await balance();
      const res = await unified({
        model: 'kling-v3-omni',
        prompt: 'the door opens',
        duration: 7,
        resolution: '1080p',
        input_reference: `data:image/png;base64,${PNG.toString('base64')}`,
        last_frame: 'http://127.0.0.1:9/last.png',
      }).expect(200);
      expect(lastCreate().endpoint).toBe('omni-video');
      expect(lastCreate().body).toEqual({
        model_name: 'kling-v3-omni',
        mode: 'pro',
        duration: '7',
        prompt: 'the door opens',
        image_list: [
          { image_url: PNG.toString('base64'), type: 'first_frame' },
          { image_url: 'http://127.0.0.1:9/last.png', type: 'end_frame' },
        ],
      });
      expect(await balance()).toEqual({ quota: before.quota - 7 * V3_1080P, used_quota: before.used_quota + 7 * V3_1080P });
      await settle();
      const done = await unifiedTask(res.body.id);
      expect(done).toMatchObject({ status: 'SUCCESS', action: 'imageGenerate' });
      expect(t.fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/videos/omni-video/'))).toBe(true);
      const link = new URL(done.result_url as string);
      const bytes = await content(`${link.pathname}${link.search}`, false).expect(200);
      expect(Buffer.compare(bytes.body as Buffer, t.fake.videoBytes)).toBe(0);
    });
  },
  lastCases: (t) => {
    const { flat, flatTask, balance, settle } = t;
    // Last: it adds a second channel, and leaves the first one marked faulty.
    it('falls over to the next channel when Kling says the account is in arrears (1101), charging once', async () => {
      const second = await startKlingEmulator({ accessKey: 'AKSECONDKLING02', secretKey: 'second-secret-02' });
      try {
        await t.gw.createChannel({
          name: 'kling-second',
          platform: 'kling',
          base_url: second.url,
          api_key: second.apiKey,
          models: MODELS,
          priority: 0,
        });
        const before = await balance();
        t.fake.failNextSubmit({ status: 429, code: 1101 });
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
  },
});

/** Kling 3 on MariaDB and PostgreSQL: kling-v3 and kling-v3-omni charged at the list price and delivered, a failed task refunded exactly once. */
describeFamilyMoney('kling family', SETUP, (t) => {
  it('charges kling-v3 and kling-v3-omni per second at their list price, delivers both; a task Kling failed is refunded once', async () => {
    const start = await t.balance();
    const v3 = await t.flat({ model: 'kling-v3', prompt: 'a fox in the snow', seconds: '5', size: '1280x720' }).expect(200);
    expect(await t.balance()).toEqual({ quota: start.quota - 5 * V3_720P, used_quota: start.used_quota + 5 * V3_720P });
    await t.expectVideo(v3.body.id);
    expect(t.fake.creates.at(-1)).toMatchObject({ endpoint: 'text2video', body: { model_name: 'kling-v3', mode: 'std', duration: '5' } });
    expect(await t.ledgerOf(v3.body.id)).toEqual(['consume']);

    const afterV3 = await t.balance();
    const omni = await t.unified({ model: 'kling-v3-omni', prompt: 'a fox in the snow', duration: 6, resolution: '1080p' }).expect(200);
    expect(await t.balance()).toEqual({ quota: afterV3.quota - 6 * V3_1080P, used_quota: afterV3.used_quota + 6 * V3_1080P });
    await t.expectVideo(omni.body.id);
    expect(t.fake.creates.at(-1)).toMatchObject({
      endpoint: 'omni-video',
      body: { model_name: 'kling-v3-omni', mode: 'pro', duration: '6' },
    });
    expect(await t.ledgerOf(omni.body.id)).toEqual(['consume']);

    const charged = await t.balance();
    expect(charged).toEqual({
      quota: start.quota - 5 * V3_720P - 6 * V3_1080P,
      used_quota: start.used_quota + 5 * V3_720P + 6 * V3_1080P,
    });
    t.fake.scriptNext(['processing', { failed: 'Video generation failed' }]);
    const failed = await t.flat({ model: 'kling-v3', prompt: 'a storm', seconds: '5', size: '1280x720' }).expect(200);
    expect((await t.balance()).quota).toBe(charged.quota - 5 * V3_720P);
    expect(await t.finish(failed.body.id)).toMatchObject({ status: 'FAILURE', fail_reason: 'generation failed' });
    // A further sync round refunds nothing more.
    await t.settle();
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(failed.body.id)).toEqual(['consume', 'refund']);
  });
});
