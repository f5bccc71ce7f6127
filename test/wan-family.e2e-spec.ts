import { describeEmbeddedSimulator } from './support/embedded-simulator';
import { describeFamily, describeFamilyMoney, FamilyMoneySetup } from './support/family-suite';
import { startWanEmulator, WanEmulatorServer } from './support/wan-emulator';
import { SAMPLE_PNG as PNG, SAMPLE_PNG_DATA_URI as DATA_URI } from './support/sample-image';

const QUOTA = 10_000_000;
const MODELS = ['wan2.6-t2v', 'wan2.6-i2v', 'wan2.7-t2v', 'wan2.7-i2v'];
/** Seeded list prices, quota units per second (credits of 0.01 USD x 100): $0.10 at 720p, $0.15 at 1080p. */
const PRICE = { '720p': 1000, '1080p': 1500 };
const FIRST = 'https://cdn.example.com/first.png';
const CHANNEL = { name: 'wan-main', platform: 'wan', models: MODELS };
/** The fake and its channel, on every database. */
const SETUP: FamilyMoneySetup<WanEmulatorServer> = {
  platform: 'wan',
  startFake: startWanEmulator,
  channel: CHANNEL,
  quota: QUOTA,
  pace: { rounds: 4, stepMs: 10_000 },
};

/** Wan (platform `wan`, DashScope) against its emulator on loopback, on both surfaces. */
describeFamily<WanEmulatorServer>({
  title: 'wan family',
  ...SETUP,
  submitsOf: (fake) => fake.creates.length,
  listing: {
    label: { en: 'Wan (Alibaba DashScope)', 'zh-CN': '通义万相 Wan' },
    // wan2.7-videoedit edits a stored video (test/video-from-video.e2e-spec.ts).
    models: [...MODELS, 'wan2.7-videoedit'],
    default_base_url: 'https://dashscope-intl.aliyuncs.com',
  },
  refusals: [
    { form: 'flat', param: 'input_reference', body: { model: 'wan2.6-i2v', prompt: 'no image' } },
    { form: 'unified', param: 'input_reference', body: { model: 'wan2.6-t2v', prompt: 'p', input_reference: FIRST } },
    { form: 'flat', param: 'seconds', body: { model: 'wan2.6-t2v', prompt: 'p', seconds: '7' } },
    { form: 'unified', param: 'duration', body: { model: 'wan2.7-t2v', prompt: 'p', duration: 16 } },
    { form: 'unified', param: 'resolution', body: { model: 'wan2.7-t2v', prompt: 'p', resolution: '480p' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'wan2.7-i2v', input_reference: FIRST, aspect_ratio: '16:9' } },
    { form: 'flat', param: 'size', body: { model: 'wan2.6-t2v', prompt: 'p', size: '1000x1000' } },
    {
      form: 'unified',
      param: 'last_frame',
      name: 'wan2.6-i2v with last_frame',
      body: { model: 'wan2.6-i2v', input_reference: FIRST, last_frame: DATA_URI },
    },
    { form: 'unified', param: 'audio', body: { model: 'wan2.7-t2v', prompt: 'p', audio: false } },
    { form: 'unified', param: 'metadata.size', body: { model: 'wan2.6-t2v', prompt: 'p', metadata: { size: '832*480' } } },
    { form: 'unified', param: 'seed', body: { model: 'wan2.7-t2v', prompt: 'p', seed: 2147483648 } },
    {
      form: 'unified',
      param: 'negative_prompt',
      name: 'a negative prompt over 500',
      body: { model: 'wan2.7-t2v', prompt: 'p', negative_prompt: 'x'.repeat(501) },
    },
    { form: 'unified', param: 'input_reference', body: { model: 'wan2.6-i2v', input_reference: 'data:image/gif;base64,R0lGODlh' } },
    { form: 'flat', param: 'prompt', body: { model: 'wan2.7-t2v' } },
  ],
  failures: [
    ...[
      ['a failure', { failed: 'InternalError.Algo' }, 'generation failed: InternalError.Algo: provider internal error'],
      ['output moderation', { failed: 'DataInspectionFailed' }, 'content moderation failed: DataInspectionFailed'],
      ['a cancel made elsewhere (CANCELED)', 'CANCELED', 'generation failed: cancelled: the provider cancelled the task'],
      ['an expiry (UNKNOWN)', 'UNKNOWN', expect.stringMatching(/^upstream timeout: the provider no longer knows the task/)],
    ].map(([name, end, reason]) => ({
      name: name as string,
      arrange: (fake: WanEmulatorServer) => fake.scriptNext(['PENDING', 'RUNNING', end as 'CANCELED']),
      body: { model: 'wan2.7-t2v', prompt: 'a storm', seconds: '5' },
      reason,
      hidden: /10\.0\.0\.7|10\.0\.0\.5|simulated/,
    })),
    {
      name: 'a create refused with DataInspectionFailed',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 'DataInspectionFailed' }),
      body: { model: 'wan2.7-t2v', prompt: 'something unsafe' },
      atSubmit: true,
      reason: expect.stringMatching(/^content moderation failed/),
      code: 'content_moderation_failed',
      hidden: /10\.0\.0\.5|simulated/,
    },
  ],
  submitFaults: [
    {
      name: 'InvalidParameter, a 400 naming only the code',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 'InvalidParameter' }),
      body: { model: 'wan2.7-t2v', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: InvalidParameter: invalid parameter',
      hidden: /simulated/,
    },
    {
      name: 'Throttling.RateQuota, a 429 with Retry-After',
      arrange: (fake) => fake.failNextSubmit({ status: 429, code: 'Throttling.RateQuota', headers: { 'retry-after': '7' } }),
      body: { model: 'wan2.7-t2v', prompt: 'p' },
      status: 429,
      retryAfter: '7',
      hidden: /simulated/,
    },
    {
      name: 'Arrearage, a 503',
      arrange: (fake) => fake.failNextSubmit({ status: 400, code: 'Arrearage' }),
      body: { model: 'wan2.7-t2v', prompt: 'p' },
      status: 503,
      hidden: /account 42|simulated/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, balance, ledgerOf } = t;
    const lastCreate = () => t.fake.creates.at(-1)!;

    it('text-to-video on /v1/videos: wan2.6-t2v on the legacy wire (size), Bearer and X-DashScope-Async, charged per second, its usage kept', async () => {
      const before = await balance();
      const res = await flat({ model: 'wan2.6-t2v', prompt: 'a lighthouse at dusk', seconds: '10', size: '720x1280' }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'wan2.6-t2v', status: 'queued' });
      expect(lastCreate().request.headers).toMatchObject({ authorization: `Bearer ${t.fake.apiKey}`, 'x-dashscope-async': 'enable' });
      expect(lastCreate().body).toEqual({
        model: 'wan2.6-t2v',
        input: { prompt: 'a lighthouse at dusk' },
        parameters: { duration: 10, audio: false, size: '720*1280' },
      });
      expect(await balance()).toEqual({ quota: before.quota - 10 * PRICE['720p'], used_quota: before.used_quota + 10 * PRICE['720p'] });
      await t.expectVideo(res.body.id);
      expect(await ledgerOf(res.body.id)).toEqual(['consume']);
      const detail = (await t.gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
      expect(detail.provider_usage).toMatchObject({ unit: 'video_seconds', amount: 10 });
      // Every API call carried the key; the OSS download none.
      expect(
        t.fake.requests.filter((r) => r.path.startsWith('/api/')).every((r) => r.headers.authorization === `Bearer ${t.fake.apiKey}`),
      ).toBe(true);
      expect(t.fake.requests.filter((r) => r.path.startsWith('/oss/')).every((r) => r.headers.authorization === undefined)).toBe(true);
    });

    it('image-to-video on /v1/videos from a multipart file part: wan2.6-i2v gets it as img_url, a data URI, at 1080P', async () => {
      const before = await balance();
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'wan2.6-i2v')
        .field('prompt', 'the light turns')
        .field('seconds', '5')
        .field('resolution', '1080p')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      expect(lastCreate().body).toEqual({
        model: 'wan2.6-i2v',
        input: { prompt: 'the light turns', img_url: DATA_URI },
        parameters: { duration: 5, resolution: '1080P', audio: false },
      });
      expect((await balance()).quota).toBe(before.quota - 5 * PRICE['1080p']);
      await t.expectVideo(res.body.id);
    });

    it('text-to-video on /v1/video/generations: wan2.7-t2v on the media wire (ratio), seed, negative prompt and metadata as parameters', async () => {
      const before = await balance();
      const res = await unified({
        model: 'wan2.7-t2v',
        prompt: 'rain on a tin roof',
        negative_prompt: 'blur',
        duration: 2,
        aspect_ratio: '9:16',
        resolution: '1080p',
        seed: 42,
        metadata: { prompt_extend: false, watermark: false },
      }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'wan2.7-t2v',
        input: { prompt: 'rain on a tin roof', negative_prompt: 'blur' },
        parameters: { prompt_extend: false, watermark: false, seed: 42, duration: 2, ratio: '9:16', resolution: '1080P' },
      });
      expect((await balance()).quota).toBe(before.quota - 2 * PRICE['1080p']);
      await t.expectVideo(res.body.id);
    });

    it('first and last frames on /v1/video/generations: wan2.7-i2v gets media[] of first_frame and last_frame', async () => {
      const before = await balance();
      const res = await unified({
        model: 'wan2.7-i2v',
        prompt: 'the door opens',
        input_reference: FIRST,
        last_frame: DATA_URI,
        duration: 4,
      }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'wan2.7-i2v',
        input: {
          prompt: 'the door opens',
          media: [
            { type: 'first_frame', url: FIRST },
            { type: 'last_frame', url: DATA_URI },
          ],
        },
        parameters: { duration: 4, resolution: '720P' },
      });
      expect((await balance()).quota).toBe(before.quota - 4 * PRICE['720p']);
      await t.expectVideo(res.body.id);
    });

    it('cancels a PENDING task (POST /api/v1/tasks/{id}/cancel, refunded in full); a RUNNING one is a 409, DashScope not asked', async () => {
      const before = await balance();
      t.fake.scriptNext(['PENDING']);
      const queued = await flat({ model: 'wan2.7-t2v', prompt: 'a kite', seconds: '5' }).expect(200);
      const cancelled = await auth(t.gw.http.post(`/v1/video/generations/${queued.body.id}/cancel`)).expect(200);
      expect(cancelled.body.data).toMatchObject({ status: 'FAILURE', fail_reason: 'cancelled by the client' });
      expect(t.fake.cancels().at(-1)!.headers.authorization).toBe(`Bearer ${t.fake.apiKey}`);
      expect(await balance()).toEqual(before);
      expect(await ledgerOf(queued.body.id)).toEqual(['consume', 'refund']);

      t.fake.scriptNext(['RUNNING']);
      const running = await flat({ model: 'wan2.7-t2v', prompt: 'a kite', seconds: '5' }).expect(200);
      t.gw.clock.advance(10_000);
      await t.gw.sync();
      const cancels = t.fake.cancels().length;
      const refused = await auth(t.gw.http.post(`/v1/videos/${running.body.id}/cancel`)).expect(409);
      expect(refused.body.error).toMatchObject({ code: 'cancel_not_supported' });
      expect(t.fake.cancels()).toHaveLength(cancels);
    });

    it('an operator adds wan2.5-t2v-preview (480p) as a catalog entry: it reaches DashScope on the wire its id speaks', async () => {
      const entry = {
        modes: ['text-to-video'],
        durations: [5, 10],
        default_duration: 5,
        resolutions: ['480p', '720p'],
        aspect_ratios: ['16:9', '1:1'],
        audio: 'optional',
        prices: [{ resolution: '*', unit: 'second', price: 500, audio_price: 500 }],
      };
      const refused = await t.gw.admin
        .post('/api/admin/models', {
          ...entry,
          id: 'wan2.5-x',
          routes: [{ platform: 'wan', upstream_model: 'wan2.5-t2v-preview', options: { protocol: 'soap' } }],
        })
        .expect(400);
      expect(JSON.stringify(refused.body)).toContain('protocol');
      await t.gw.admin
        .post('/api/admin/models', {
          ...entry,
          id: 'wan2.5-t2v-preview',
          routes: [{ platform: 'wan', upstream_model: 'wan2.5-t2v-preview' }],
        })
        .expect(201);
      const channels = (await t.gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ id: number; name: string }>;
      const channel = channels.find((c) => c.name === 'wan-main')!;
      await t.gw.admin.patch(`/api/admin/channels/${channel.id}`, { models: [...MODELS, 'wan2.5-t2v-preview'] }).expect(200);
      const before = await balance();
      const res = await unified({ model: 'wan2.5-t2v-preview', prompt: 'a red kite', aspect_ratio: '1:1', audio: true }).expect(200);
      expect(lastCreate().body).toEqual({
        model: 'wan2.5-t2v-preview',
        input: { prompt: 'a red kite' },
        parameters: { duration: 5, audio: true, size: '624*624' },
      });
      expect((await balance()).quota).toBe(before.quota - 5 * 500);
      await t.expectVideo(res.body.id);
    });

    it("refuses a key pasted with its scheme; a wrong key is DashScope's 401, and the channel's Test names the key", async () => {
      const pasted = await t.gw.admin
        .post('/api/admin/channels', { ...CHANNEL, name: 'wan-pasted', base_url: t.fake.url, api_key: 'Bearer sk-abc12345678' })
        .expect(400);
      expect(pasted.body.error).toMatchObject({ param: 'api_key' });
      expect(pasted.body.error.message).not.toContain('sk-abc12345678');
      const wrong = await t.gw.createChannel({
        ...CHANNEL,
        name: 'wan-wrong',
        base_url: t.fake.url,
        api_key: 'sk-wrong000000000',
        priority: -1,
      });
      const test = (await t.gw.admin.post(`/api/admin/channels/${wrong}/test`).expect(200)).body;
      expect(test).toMatchObject({ ok: false, method: 'probe' });
      expect(test.error).toMatch(/api_key/);
      expect(JSON.stringify(test)).not.toContain('sk-wrong000000000');
      const direct = await fetch(`${t.fake.url}/api/v1/tasks/x`, { headers: { authorization: 'Bearer sk-wrong000000000' } });
      expect({ status: direct.status, body: await direct.json() }).toMatchObject({ status: 401, body: { code: 'InvalidApiKey' } });
      await t.gw.admin.patch(`/api/admin/channels/${wrong}`, { status: 'disabled' }).expect(200);
    });
  },
});

/**
 * What touches money on the other databases (SQLite runs the whole suite above): a Wan task charged at the catalog
 * price and completed, a moderated one refunded once.
 */
describeFamilyMoney('wan family', SETUP, (t) => {
  it('a task is charged once at the catalog price and completes; a moderated one is refunded exactly once', async () => {
    const start = await t.balance();
    const done = await t.flat({ model: 'wan2.7-t2v', prompt: 'a fox', seconds: '3' }).expect(200);
    await t.expectVideo(done.body.id);
    expect(await t.ledgerOf(done.body.id)).toEqual(['consume']);
    expect((await t.balance()).quota).toBe(start.quota - 3 * PRICE['720p']);

    t.fake.scriptNext(['PENDING', { failed: 'DataInspectionFailed' }]);
    const moderated = await t.flat({ model: 'wan2.7-t2v', prompt: 'a fox', seconds: '3' }).expect(200);
    expect(await t.finish(moderated.body.id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'content moderation failed: DataInspectionFailed',
    });
    expect(await t.ledgerOf(moderated.body.id)).toEqual(['consume', 'refund']);
    expect((await t.balance()).quota).toBe(start.quota - 3 * PRICE['720p']);
  });
});

describeEmbeddedSimulator(
  'wan family: the embedded simulator',
  QUOTA,
  'its seeded channel serves every builtin model to the sample video; reject, busy and credits prompts answer as DashScope would, nothing kept',
  async (s) => {
    const ids = await s.submitAll([
      { model: 'wan2.6-t2v', prompt: 'a kite', duration: 5 },
      { model: 'wan2.6-i2v', prompt: 'a kite', duration: 5, input_reference: DATA_URI },
      { model: 'wan2.7-t2v', prompt: 'a kite', duration: 2 },
      { model: 'wan2.7-i2v', prompt: 'a kite', duration: 2, input_reference: DATA_URI, last_frame: DATA_URI },
    ]);
    await s.run(6, 7_000);
    await s.expectDelivered(ids, ids[0]);
    await s.expectMarkersKeepNothing('wan2.7-t2v');
  },
);
