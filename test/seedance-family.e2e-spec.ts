import { describeEmbeddedSimulator } from './support/embedded-simulator';
import { describeFamily, describeFamilyMoney, FamilyMoneySetup } from './support/family-suite';
import { SeedanceEmulatorServer, startSeedanceEmulator } from './support/seedance-emulator';
import { SAMPLE_PNG as PNG, SAMPLE_PNG_DATA_URI as DATA_URI } from './support/sample-image';

const QUOTA = 10_000_000;
const MODELS = ['seedance-2-0', 'seedance-2-0-fast', 'seedance-1-5-pro'];
/** Seeded list prices, quota units per second (credits of 0.01 USD x 100); 1.5 pro is cheaper silent. */
const PRICE = {
  'seedance-2-0': { '720p': 1420, '480p': 640 },
  'seedance-2-0-fast': { '720p': 1140 },
  'seedance-1-5-pro': { '1080p': { silent: 580, audio: 1170 } },
};
const HIDDEN = /10\.0\.0\.\d|account 42|simulated|Request ID/;

/** Seedance (platform `seedance`) against its emulator of Ark on loopback, on both surfaces. */
/** The fake and its channel, on every database. */
const SETUP: FamilyMoneySetup<SeedanceEmulatorServer> = {
  platform: 'seedance',
  startFake: startSeedanceEmulator,
  channel: { name: 'seedance-main', models: MODELS },
  quota: QUOTA,
  pace: { rounds: 4, stepMs: 10_000 },
};

describeFamily<SeedanceEmulatorServer>({
  title: 'seedance family',
  ...SETUP,
  submitsOf: (fake) => fake.creates.length,
  listing: {
    label: { en: 'Seedance (BytePlus / Volcengine)', 'zh-CN': expect.stringContaining('Seedance') },
    models: MODELS,
    default_base_url: 'https://ark.ap-southeast.bytepluses.com',
  },
  refusals: [
    { form: 'both', param: 'seconds', body: { model: 'seedance-2-0', prompt: 'p', seconds: '16' } },
    { form: 'unified', param: 'duration', body: { model: 'seedance-1-5-pro', prompt: 'p', duration: 13 } },
    { form: 'unified', param: 'resolution', body: { model: 'seedance-2-0-fast', prompt: 'p', resolution: '1080p' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'seedance-2-0', prompt: 'p', aspect_ratio: '2:1' } },
    {
      form: 'unified',
      name: 'an explicit ratio with a first frame',
      param: 'aspect_ratio',
      body: { model: 'seedance-2-0', input_reference: DATA_URI, aspect_ratio: '16:9' },
    },
    {
      form: 'unified',
      name: 'frames and reference images mixed',
      param: 'reference_images',
      body: { model: 'seedance-2-0', prompt: 'p', input_reference: DATA_URI, reference_images: ['https://cdn.example.com/a.png'] },
    },
    {
      form: 'flat',
      name: 'ten reference images',
      param: 'reference_images',
      body: { model: 'seedance-2-0', prompt: 'p', reference_images: Array(10).fill('https://cdn.example.com/a.png') },
    },
    {
      form: 'unified',
      param: 'reference_images',
      body: { model: 'seedance-1-5-pro', prompt: 'p', reference_images: ['https://cdn.example.com/a.png'] },
    },
    {
      form: 'unified',
      name: 'a last frame alone',
      param: 'last_frame',
      body: { model: 'seedance-2-0', prompt: 'p', last_frame: DATA_URI },
    },
    { form: 'flat', param: 'size', body: { model: 'seedance-2-0', prompt: 'p', size: '1000x1000' } },
    { form: 'unified', param: 'negative_prompt', body: { model: 'seedance-2-0', prompt: 'p', negative_prompt: 'blur' } },
    { form: 'unified', param: 'metadata.service_tier', body: { model: 'seedance-2-0', prompt: 'p', metadata: { service_tier: 'flex' } } },
    { form: 'flat', param: 'prompt', body: { model: 'seedance-2-0-fast' } },
  ],
  failures: [
    ...[
      ['a failure inside Ark', { failed: 'InternalServiceError' }, 'generation failed: InternalServiceError: provider internal error'],
      [
        'output moderation',
        { failed: 'OutputVideoSensitiveContentDetected' },
        'content moderation failed: OutputVideoSensitiveContentDetected',
      ],
      ['an expired task (an end, never still running)', 'expired', 'upstream timeout: the provider expired the task'],
      ['a task cancelled upstream (an end)', 'cancelled', 'generation failed: the task was cancelled upstream'],
    ].map(([name, end, reason]) => ({
      name: name as string,
      arrange: (fake: SeedanceEmulatorServer) => fake.scriptNext(['queued', 'running', end as 'expired']),
      body: { model: 'seedance-2-0-fast', prompt: 'a storm', seconds: '5' },
      reason,
      hidden: HIDDEN,
    })),
    {
      name: 'a submit refused with InputTextSensitiveContentDetected',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 'InputTextSensitiveContentDetected' }),
      body: { model: 'seedance-2-0', prompt: 'something unsafe' },
      surface: 'unified',
      atSubmit: true,
      reason: expect.stringMatching(/^content moderation failed/),
      code: 'content_moderation_failed',
      hidden: HIDDEN,
    },
  ],
  submitFaults: [
    {
      name: 'InvalidParameter, a 400 naming only the code',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 'InvalidParameter' }),
      body: { model: 'seedance-2-0-fast', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: InvalidParameter: a field is invalid',
      hidden: HIDDEN,
    },
    {
      name: 'RateLimitExceeded, a 429 with Retry-After',
      arrange: (fake) => fake.failNextSubmit({ status: 429, code: 'RateLimitExceeded', headers: { 'retry-after': '7' } }),
      body: { model: 'seedance-2-0-fast', prompt: 'p' },
      status: 429,
      retryAfter: '7',
      hidden: HIDDEN,
    },
    {
      name: 'AccountOverdueError, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 403, code: 'AccountOverdueError' }),
      body: { model: 'seedance-2-0-fast', prompt: 'p' },
      status: 503,
      hidden: HIDDEN,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, balance, ledgerOf } = t;
    const lastCreate = () => t.fake.creates.at(-1)!;
    const expectVideo = (taskId: string) => t.expectVideo(taskId, { platform: '' });
    const text = (prompt: string) => ({ type: 'text', text: prompt });
    const image = (url: string, role: string) => ({ type: 'image_url', image_url: { url }, role });

    it('text-to-video on /v1/videos: 2.0 fast by its dated id with Bearer, charged per second, the video through /content, tokens as provider usage', async () => {
      const before = await balance();
      const res = await flat({ model: 'seedance-2-0-fast', prompt: 'a paper lantern over a river', seconds: '5', size: '1280x720' }).expect(
        200,
      );
      expect(res.body).toMatchObject({ object: 'video', model: 'seedance-2-0-fast', status: 'queued' });
      expect(lastCreate().request.headers.authorization).toBe(`Bearer ${t.fake.apiKey}`);
      expect(lastCreate().body).toEqual({
        model: 'dreamina-seedance-2-0-fast-260128',
        content: [text('a paper lantern over a river')],
        duration: 5,
        resolution: '720p',
        ratio: '16:9',
        generate_audio: true,
      });
      expect(await balance()).toEqual({
        quota: before.quota - 5 * PRICE['seedance-2-0-fast']['720p'],
        used_quota: before.used_quota + 5 * PRICE['seedance-2-0-fast']['720p'],
      });
      await expectVideo(res.body.id);
      // 1280 x 720 x 24 fps x 5 s / 1024: the operator's, never the customer's.
      const detail = (await t.gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
      expect(detail.provider_usage).toMatchObject({ unit: 'tokens', amount: 108_000 });
      expect(JSON.stringify(await t.flatTask(res.body.id))).not.toMatch(/tokens|108000/);
      expect(JSON.stringify(await t.unifiedTask(res.body.id))).not.toMatch(/tokens|108000/);
      // Every API call carried the Bearer key; the video download none.
      const api = t.fake.requests.filter((r) => r.path.startsWith('/api/v3/'));
      expect(api.every((r) => r.headers.authorization === `Bearer ${t.fake.apiKey}`)).toBe(true);
      expect(t.fake.requests.filter((r) => r.path.startsWith('/tos/')).every((r) => r.headers.authorization === undefined)).toBe(true);
    });

    it('image-to-video on /v1/videos from a multipart file part: 1.5 pro silent at 1080p, the frame as a data URI, ratio adaptive', async () => {
      const before = await balance();
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'seedance-1-5-pro')
        .field('prompt', 'the lantern rises')
        .field('seconds', '4')
        .field('size', '1920x1080')
        .field('audio', 'false')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      expect(lastCreate().body).toEqual({
        model: 'seedance-1-5-pro-251215',
        content: [text('the lantern rises'), image(DATA_URI, 'first_frame')],
        duration: 4,
        resolution: '1080p',
        ratio: 'adaptive',
        generate_audio: false,
      });
      expect((await balance()).quota).toBe(before.quota - 4 * PRICE['seedance-1-5-pro']['1080p'].silent);
      await expectVideo(res.body.id);
    });

    it('first and last frames on /v1/video/generations: 2.0 with seed and metadata passed as they are', async () => {
      const before = await balance();
      const res = await unified({
        model: 'seedance-2-0',
        prompt: 'the door opens',
        input_reference: 'https://cdn.example.com/start.png',
        last_frame: DATA_URI,
        duration: 6,
        seed: 42,
        metadata: { watermark: false, camera_fixed: true },
      }).expect(200);
      expect(lastCreate().body).toEqual({
        watermark: false,
        camera_fixed: true,
        model: 'dreamina-seedance-2-0-260128',
        content: [text('the door opens'), image('https://cdn.example.com/start.png', 'first_frame'), image(DATA_URI, 'last_frame')],
        duration: 6,
        resolution: '720p',
        ratio: 'adaptive',
        generate_audio: true,
        seed: 42,
      });
      expect((await balance()).quota).toBe(before.quota - 6 * PRICE['seedance-2-0']['720p']);
      await expectVideo(res.body.id);
    });

    it('reference images on /v1/video/generations: 2.0 at 480p 9:16, each image a reference_image', async () => {
      const before = await balance();
      const res = await unified({
        model: 'seedance-2-0',
        prompt: 'the cat of [Image 1] in the garden of [Image 2]',
        reference_images: ['https://cdn.example.com/cat.png', DATA_URI],
        aspect_ratio: '9:16',
        resolution: '480p',
        duration: 4,
        audio: false,
      }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'dreamina-seedance-2-0-260128',
        content: [
          text('the cat of [Image 1] in the garden of [Image 2]'),
          image('https://cdn.example.com/cat.png', 'reference_image'),
          image(DATA_URI, 'reference_image'),
        ],
        duration: 4,
        resolution: '480p',
        ratio: '9:16',
        generate_audio: false,
      });
      expect((await balance()).quota).toBe(before.quota - 4 * PRICE['seedance-2-0']['480p']);
      await expectVideo(res.body.id);
    });

    it('cancels a task Ark still queues (DELETE, refunded in full); a running one is a 409, Ark not asked', async () => {
      const before = await balance();
      t.fake.scriptNext(['queued']);
      const queued = await flat({ model: 'seedance-2-0-fast', prompt: 'a kite', seconds: '5' }).expect(200);
      const cancelled = await auth(t.gw.http.post(`/v1/video/generations/${queued.body.id}/cancel`)).expect(200);
      expect(cancelled.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
      const sent = t.fake.deletes().at(-1)!;
      expect(sent.headers.authorization).toBe(`Bearer ${t.fake.apiKey}`);
      expect(sent.path).toMatch(/^\/api\/v3\/contents\/generations\/tasks\/cgt-\d{14}-\w{5}$/);
      expect(await balance()).toEqual(before);
      expect(await ledgerOf(queued.body.id)).toEqual(['consume', 'refund']);

      t.fake.scriptNext(['running']);
      const running = await flat({ model: 'seedance-2-0-fast', prompt: 'a kite', seconds: '5' }).expect(200);
      t.gw.clock.advance(10_000);
      await t.gw.sync();
      const deletes = t.fake.deletes().length;
      const refused = await auth(t.gw.http.post(`/v1/videos/${running.body.id}/cancel`)).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'cancel_not_supported' });
      expect(t.fake.deletes()).toHaveLength(deletes);
    });
  },
  // Last: it adds channels on the same emulator, which would take the common cases' retries.
  lastCases: (t) => {
    it("a wrong key is refused by the emulator as Ark does and named by the channel's Test; a base URL with /api/v3 works too, one elsewhere is named", async () => {
      const bearer = await fetch(`${t.fake.url}/api/v3/contents/generations/tasks/cgt-1`, {
        headers: { authorization: 'Bearer wrong-key-0000' },
      });
      expect(bearer.status).toBe(401);
      expect((await bearer.json()).error).toMatchObject({ code: 'AuthenticationError' });
      const channel = async (name: string, base_url: string, api_key: string) =>
        (
          await t.gw.admin
            .post(
              `/api/admin/channels/${await t.gw.createChannel({ name, platform: 'seedance', base_url, api_key, models: MODELS, priority: -1 })}/test`,
            )
            .expect(200)
        ).body;
      expect(await channel('seedance-wrong', t.fake.url, 'wrong-key-0000')).toMatchObject({
        ok: false,
        error: expect.stringMatching(/api_key/),
      });
      expect(await channel('seedance-v3', `${t.fake.url}/api/v3`, t.fake.apiKey)).toMatchObject({ ok: true });
      expect(await channel('seedance-elsewhere', `${t.fake.url}/nowhere`, t.fake.apiKey)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/base_url/),
      });
      const pasted = await t.gw.admin
        .post('/api/admin/channels', {
          name: 'seedance-pasted',
          platform: 'seedance',
          base_url: t.fake.url,
          api_key: 'Bearer abc-123-456',
          models: MODELS,
        })
        .expect(400);
      expect(pasted.body.error).toMatchObject({ param: 'api_key' });
      expect(pasted.body.error.message).not.toContain('abc-123-456');
    });
  },
});

describeEmbeddedSimulator(
  'seedance family: the embedded simulator',
  QUOTA,
  'its seeded channel serves every builtin model to the sample video; reject, busy and credits prompts answer as Ark would, nothing kept',
  async (s) => {
    const ids = await s.submitAll([
      { model: 'seedance-2-0', prompt: 'a kite', duration: 4, reference_images: [DATA_URI] },
      { model: 'seedance-2-0-fast', prompt: 'a kite', duration: 4, resolution: '480p' },
      { model: 'seedance-1-5-pro', prompt: 'a kite', duration: 4, input_reference: DATA_URI, last_frame: DATA_URI },
    ]);
    await s.run(4, 10_000);
    await s.expectDelivered(ids, ids[1]);
    // fal's seeded channel also sells Seedance 2.0 fast; the prompts below are Ark's, so only Ark's channel serves them.
    const channels = (await s.gw.admin.get('/api/admin/channels').expect(200)).body.data as { id: number; platform: string }[];
    for (const channel of channels.filter((each) => each.platform !== 'seedance'))
      await s.gw.admin.patch(`/api/admin/channels/${channel.id}`, { status: 'disabled' }).expect(200);
    await s.expectMarkersKeepNothing('seedance-2-0-fast');
  },
);

/**
 * What touches money on the other databases (SQLite runs the whole suite above): a task charged at the list
 * price and delivered with its tokens kept, and one Ark fails refunded exactly once.
 */
describeFamilyMoney('seedance family', SETUP, (t) => {
  it('charges 2.0 fast per second, delivers the video with its tokens kept; a failed task is refunded once', async () => {
    const before = await t.balance();
    const done = await t.unified({ model: 'seedance-2-0-fast', prompt: 'a kite', duration: 5 }).expect(200);
    expect(await t.balance()).toEqual({
      quota: before.quota - 5 * PRICE['seedance-2-0-fast']['720p'],
      used_quota: before.used_quota + 5 * PRICE['seedance-2-0-fast']['720p'],
    });
    await t.expectVideo(done.body.id);
    const detail = (await t.gw.admin.get(`/api/admin/tasks/${done.body.id}`).expect(200)).body;
    expect(detail.provider_usage).toMatchObject({ unit: 'tokens', amount: 108_000 });

    const charged = await t.balance();
    t.fake.scriptNext(['queued', 'running', 'expired']);
    const expired = await t.flat({ model: 'seedance-2-0-fast', prompt: 'a kite', seconds: '5' }).expect(200);
    expect(await t.finish(expired.body.id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'upstream timeout: the provider expired the task',
    });
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(expired.body.id)).toEqual(['consume', 'refund']);
  });
});
