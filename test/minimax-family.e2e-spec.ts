import { binaryBody } from './support/binary-body';
import { MinimaxEmulatorServer, MinimaxStep, startMinimaxEmulator } from './support/minimax-emulator';
import { describeFamily, describeFamilyMoney, FamilyMoneySetup } from './support/family-suite';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
/** The seeded default: 5 credits per second at 768P (100 quota units per credit). */
const PER_SECOND_768P = 500;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(400, 9)]);
const MODELS = ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-2.3-Fast', 'MiniMax-Hailuo-02', 'MiniMax-H3'];
/** MiniMax-H3's seeded prices per second (sound always): 8 credits at 2K, 5 at 768P. */
const H3_2K = 800;
const H3_768P = 500;

/** The fake and its channel, on every database. */
const SETUP: FamilyMoneySetup<MinimaxEmulatorServer> = {
  platform: 'minimax',
  startFake: startMinimaxEmulator,
  channel: { name: 'minimax', models: MODELS },
  quota: QUOTA,
  pace: { rounds: 8, stepMs: 15_000 },
};

/** MiniMax Hailuo (platform `minimax`) against a fake of its video API v1 on loopback. */
describeFamily<MinimaxEmulatorServer>({
  title: 'MiniMax Hailuo family',
  ...SETUP,
  submitsOf: (fake) => fake.submits().length + fake.v2Submits().length,
  listing: { label: { en: 'MiniMax Hailuo', 'zh-CN': 'MiniMax 海螺' }, models: MODELS },
  refusals: [
    { form: 'flat', param: 'seconds', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', seconds: '8' } },
    { form: 'unified', param: 'duration', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', duration: 5 } },
    { form: 'unified', param: 'duration', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', duration: 10, resolution: '1080P' } },
    { form: 'flat', param: 'input_reference', body: { model: 'MiniMax-Hailuo-2.3-Fast', prompt: 'p' } },
    { form: 'unified', param: 'resolution', body: { model: 'MiniMax-Hailuo-02', prompt: 'p', resolution: '512P' } },
    { form: 'flat', param: 'size', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', size: '1280x720' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', aspect_ratio: '9:16' } },
    {
      form: 'flat',
      param: 'last_frame',
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', input_reference: 'https://x.example/f.png', last_frame: 'https://x.example/l.png' },
    },
    { form: 'unified', param: 'negative_prompt', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', negative_prompt: 'blur' } },
    { form: 'unified', param: 'seed', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', seed: 4 } },
    { form: 'flat', param: 'metadata.duration', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p', metadata: { duration: 10 } } },
    { form: 'unified', param: 'prompt', body: { model: 'MiniMax-Hailuo-2.3', prompt: 'x'.repeat(2001) } },
    {
      form: 'flat',
      param: 'input_reference',
      body: { model: 'MiniMax-Hailuo-2.3-Fast', prompt: 'p', input_reference: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' },
    },
    { form: 'unified', param: 'duration', body: { model: 'MiniMax-H3', prompt: 'p', duration: 4 } },
    { form: 'flat', param: 'resolution', body: { model: 'MiniMax-H3', prompt: 'p', resolution: '1080P' } },
    { form: 'unified', param: 'aspect_ratio', body: { model: 'MiniMax-H3', prompt: 'p', aspect_ratio: 'adaptive' } },
    { form: 'flat', param: 'metadata.content', body: { model: 'MiniMax-H3', prompt: 'p', metadata: { content: [] } } },
  ],
  failures: [
    ...[
      [{ fail: 1000 }, 'generation failed: 1000: unknown provider error'] as const,
      [{ fail: 1027 }, 'content moderation failed: 1027: the output was flagged as sensitive'] as const,
    ].map(([step, reason]) => ({
      name: JSON.stringify(step),
      arrange: (fake: MinimaxEmulatorServer) => fake.scriptNext(['Queueing', step]),
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'a storm' },
      reason,
      hidden: /10\.0\.0\.7/,
    })),
    {
      name: 'input moderation on submit (1026)',
      arrange: (fake) => fake.failNextSubmit(1026),
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'something flagged' },
      surface: 'unified',
      atSubmit: true,
      reason: expect.stringMatching(/^content moderation failed/),
      hidden: /sk-leaked|10\.0\.0\.1/,
    },
    ...(
      [
        [['Queueing', { fail: 1027 }], 'content moderation failed: 1027: the output was flagged as sensitive'],
        [['Processing', 'Expired'], expect.stringMatching(/^generation failed: expired/)],
      ] as Array<[MinimaxStep[], unknown]>
    ).map(([steps, reason]) => ({
      name: `MiniMax-H3 ${JSON.stringify(steps)}`,
      arrange: (fake: MinimaxEmulatorServer) => fake.scriptNext(steps),
      body: { model: 'MiniMax-H3', prompt: 'a storm' },
      reason,
      hidden: /10\.0\.0\.7/,
    })),
    {
      name: 'MiniMax-H3 input moderation on submit (a v2 error envelope)',
      arrange: (fake) => fake.failNextSubmit(1026),
      body: { model: 'MiniMax-H3', prompt: 'something flagged' },
      atSubmit: true,
      reason: expect.stringMatching(/^content moderation failed/),
      hidden: /sk-leaked|10\.0\.0\.1/,
    },
  ],
  submitFaults: [
    {
      name: '2013, a 400 naming only the code',
      arrange: (fake) => fake.failNextSubmit(2013),
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p' },
      status: 400,
      message: 'upstream rejected the request: 2013: invalid params',
      hidden: /sk-leaked|10\.0\.0\.1/,
    },
    {
      name: '1002, a 429 with Retry-After',
      arrange: (fake) => fake.failNextSubmit(1002),
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p' },
      status: 429,
      hidden: /sk-leaked|10\.0\.0\.1/,
    },
    {
      name: 'insufficient balance (1008) on the only channel, a 503',
      arrange: (fake) => fake.failNextSubmit(1008),
      body: { model: 'MiniMax-Hailuo-2.3', prompt: 'p' },
      status: 503,
      hidden: /sk-leaked|10\.0\.0\.1|minimax-test-key/,
    },
    {
      name: 'MiniMax-H3 insufficient balance (HTTP 402 envelope) on the only channel, a 503',
      arrange: (fake) => fake.failNextSubmit(1008),
      body: { model: 'MiniMax-H3', prompt: 'p' },
      status: 503,
      hidden: /sk-leaked|10\.0\.0\.1|minimax-test-key/,
    },
  ],
  cases: (t) => {
    const { auth, flat, unified, flatTask, unifiedTask, balance } = t;
    const pollUntilDone = async (id: string) => {
      for (let round = 0; round < 8; round++) {
        const task = await flatTask(id);
        if (task.status === 'completed' || task.status === 'failed') return task;
        t.gw.clock.advance(15_000);
        await t.gw.sync();
      }
      return flatTask(id);
    };
    const contentOf = async (id: string) =>
      (
        await auth(t.gw.http.get(`/v1/videos/${id}/content`))
          .buffer(true)
          .parse(binaryBody)
          .expect(200)
      ).body as Buffer;
    it('text to video on /v1/videos: sends MiniMax its body with the Bearer key, charges 6 s at 768P, and serves the video the gateway fetched via files/retrieve', async () => {
      const before = await balance();
      const res = await flat({
        model: 'minimax-hailuo-2.3',
        prompt: 'a lighthouse at dusk [Truck left]',
        seconds: '6',
        metadata: { prompt_optimizer: false },
      }).expect(200);
      expect(res.body).toMatchObject({ object: 'video', model: 'MiniMax-Hailuo-2.3', status: 'queued' });
      expect(t.fake.submits().at(-1)).toEqual({
        model: 'MiniMax-Hailuo-2.3',
        prompt: 'a lighthouse at dusk [Truck left]',
        duration: 6,
        resolution: '768P',
        prompt_optimizer: false,
      });
      expect(await balance()).toEqual({
        quota: before.quota - 6 * PER_SECOND_768P,
        used_quota: before.used_quota + 6 * PER_SECOND_768P,
      });
      expect(await pollUntilDone(res.body.id)).toMatchObject({ status: 'completed', size: '1366x768' });
      expect(Buffer.compare(await contentOf(res.body.id), t.fake.videoBytes)).toBe(0);
      // Every API call carried the key; the pre-signed download did not need it.
      expect(
        t.fake.requests.filter((r) => !r.path.startsWith('/cdn/')).every((r) => r.headers.authorization === `Bearer ${t.fake.apiKey}`),
      ).toBe(true);
      expect(t.fake.requests.some((r) => r.path === '/v1/files/retrieve')).toBe(true);
      expect(t.fake.downloads().length).toBeGreaterThan(0);
      expect(t.fake.downloads().every((r) => r.headers.authorization === undefined)).toBe(true);
      expect(JSON.stringify(await flatTask(res.body.id))).not.toContain(t.fake.url);
    });

    it('image to video on /v1/videos (multipart file part): the first frame goes as a data URL, and the task completes', async () => {
      const res = await auth(t.gw.http.post('/v1/videos'))
        .field('model', 'MiniMax-Hailuo-2.3-Fast')
        .field('prompt', 'she turns to the sea')
        .field('seconds', '10')
        .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
        .expect(200);
      expect(t.fake.submits().at(-1)).toEqual({
        model: 'MiniMax-Hailuo-2.3-Fast',
        prompt: 'she turns to the sea',
        duration: 10,
        resolution: '768P',
        first_frame_image: `data:image/png;base64,${PNG.toString('base64')}`,
      });
      expect(await pollUntilDone(res.body.id)).toMatchObject({ status: 'completed' });
      expect(Buffer.compare(await contentOf(res.body.id), t.fake.videoBytes)).toBe(0);
    });

    it('text and image to video on /v1/video/generations complete, with the gateway signed link serving the bytes', async () => {
      const text = await unified({ model: 'MiniMax-Hailuo-02', prompt: 'waves', duration: 6, resolution: '1080P' }).expect(200);
      expect(t.fake.submits().at(-1)).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'waves', duration: 6, resolution: '1080P' });
      const frame = `${t.fake.url}/frames/first.png`;
      const last = `data:image/jpeg;base64,${Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]).toString('base64')}`;
      const image = await unified({
        model: 'MiniMax-Hailuo-02',
        prompt: 'a door opens',
        duration: 10,
        resolution: '512P',
        input_reference: frame,
        last_frame: last,
      }).expect(200);
      expect(t.fake.submits().at(-1)).toEqual({
        model: 'MiniMax-Hailuo-02',
        prompt: 'a door opens',
        duration: 10,
        resolution: '512P',
        first_frame_image: frame,
        last_frame_image: last,
      });
      for (const id of [text.body.id, image.body.id]) {
        await pollUntilDone(id);
        const task = await unifiedTask(id);
        expect(task.status).toBe('SUCCESS');
        expect(task.result_url).toMatch(new RegExp(`^${t.gw.url}/v1/videos/${id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
        const signed = await t.gw.http.get(task.result_url.slice(t.gw.url.length)).buffer(true).parse(binaryBody).expect(200);
        expect(Buffer.compare(signed.body as Buffer, t.fake.videoBytes)).toBe(0);
      }
      expect((await unifiedTask(image.body.id)).action).toBe('imageGenerate');
    });

    it('MiniMax-H3 on /v1/videos: a content array to the v2 API, charged at 2K with its sound, the inline URL played through /content, its seconds kept', async () => {
      const before = await balance();
      const res = await flat({
        model: 'MiniMax-H3',
        prompt: 'a paper boat in the rain',
        seconds: '8',
        aspect_ratio: '9:16',
        metadata: { aigc_watermark: true },
      }).expect(200);
      expect(res.body).toMatchObject({ model: 'MiniMax-H3', status: 'queued' });
      expect(t.fake.v2Submits().at(-1)).toEqual({
        aigc_watermark: true,
        model: 'MiniMax-H3',
        content: [{ type: 'text', text: 'a paper boat in the rain' }],
        duration: 8,
        resolution: '2K',
        ratio: '9:16',
      });
      expect(await balance()).toEqual({ quota: before.quota - 8 * H3_2K, used_quota: before.used_quota + 8 * H3_2K });
      const retrieves = t.fake.requests.filter((r) => r.path === '/v1/files/retrieve').length;
      expect(await pollUntilDone(res.body.id)).toMatchObject({ status: 'completed' });
      expect(Buffer.compare(await contentOf(res.body.id), t.fake.videoBytes)).toBe(0);
      const upstreamId = (await t.gw.admin.get(`/api/admin/tasks/${res.body.id}`).expect(200)).body;
      expect(upstreamId.provider_usage).toMatchObject({ unit: 'video_seconds', amount: 8 });
      expect(t.fake.requests.some((r) => r.path === `/v2/query/video_generation/${upstreamId.upstream_task_id}`)).toBe(true);
      expect(t.fake.requests.filter((r) => r.path === '/v1/files/retrieve')).toHaveLength(retrieves);
    });

    it('MiniMax-H3 on /v1/video/generations from a first and a last frame at 768P: the frames by role, no ratio, completed', async () => {
      const before = await balance();
      const frame = `${t.fake.url}/frames/first.png`;
      const last = `data:image/png;base64,${PNG.toString('base64')}`;
      const res = await unified({
        model: 'MiniMax-H3',
        prompt: 'a door opens',
        duration: 6,
        resolution: '768P',
        input_reference: frame,
        last_frame: last,
      }).expect(200);
      expect(t.fake.v2Submits().at(-1)).toEqual({
        model: 'MiniMax-H3',
        content: [
          { type: 'text', text: 'a door opens' },
          { type: 'image_url', image_url: { url: frame }, role: 'first_frame' },
          { type: 'image_url', image_url: { url: last }, role: 'last_frame' },
        ],
        duration: 6,
        resolution: '768P',
      });
      expect(await balance()).toEqual({ quota: before.quota - 6 * H3_768P, used_quota: before.used_quota + 6 * H3_768P });
      await pollUntilDone(res.body.id);
      const task = await unifiedTask(res.body.id);
      expect(task).toMatchObject({ status: 'SUCCESS', action: 'imageGenerate' });
      const signed = await t.gw.http.get(task.result_url.slice(t.gw.url.length)).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(signed.body as Buffer, t.fake.videoBytes)).toBe(0);
    });
  },
});

describeOnSqlite('MiniMax Hailuo family: a channel out of balance', (kind) => {
  let gw: TestGateway;
  let broke: MinimaxEmulatorServer;
  let healthy: MinimaxEmulatorServer;

  beforeAll(async () => {
    broke = await startMinimaxEmulator({ apiKey: 'broke-key' });
    healthy = await startMinimaxEmulator({ apiKey: 'healthy-key' });
    gw = await startGateway(kind);
    await gw.createChannel({
      name: 'broke',
      platform: 'minimax',
      base_url: broke.url,
      api_key: broke.apiKey,
      models: MODELS,
      priority: 10,
    });
    await gw.createChannel({
      name: 'healthy',
      platform: 'minimax',
      base_url: healthy.url,
      api_key: healthy.apiKey,
      models: MODELS,
      priority: 0,
    });
  });
  afterAll(async () => {
    await gw?.close();
    await broke?.close();
    await healthy?.close();
  });

  it('falls over to the next channel; the customer is charged once, for the task that runs', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    broke.failNextSubmit(1008);
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'MiniMax-Hailuo-2.3', prompt: 'p' })
      .expect(200);
    expect(broke.submits()).toHaveLength(1);
    expect(healthy.submits()).toHaveLength(1);
    expect(res.body.status).toBe('queued');
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 6 * PER_SECOND_768P, used_quota: 6 * PER_SECOND_768P });
  });
});

/**
 * What touches money on the other databases (SQLite runs the whole suite above): a MiniMax-H3 task (the v2 API)
 * charged at the list price and delivered with its seconds kept, and one MiniMax fails refunded exactly once.
 */
describeFamilyMoney('MiniMax Hailuo family', SETUP, (t) => {
  it('charges MiniMax-H3 at 2K per second, delivers the video with its seconds kept; a failed task is refunded once', async () => {
    const before = await t.balance();
    const done = await t.flat({ model: 'MiniMax-H3', prompt: 'a paper boat', seconds: '8' }).expect(200);
    const charged = { quota: before.quota - 8 * H3_2K, used_quota: before.used_quota + 8 * H3_2K };
    expect(await t.balance()).toEqual(charged);
    expect(t.fake.v2Submits().at(-1)).toMatchObject({ model: 'MiniMax-H3', duration: 8, resolution: '2K' });
    await t.expectVideo(done.body.id);
    const detail = (await t.gw.admin.get(`/api/admin/tasks/${done.body.id}`).expect(200)).body;
    expect(detail).toMatchObject({ archive_status: 'archived', provider_usage: { unit: 'video_seconds', amount: 8 } });
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(done.body.id)).toEqual(['consume']);

    t.fake.scriptNext(['Processing', 'Expired']);
    const expired = await t.unified({ model: 'MiniMax-H3', prompt: 'a storm', duration: 8 }).expect(200);
    expect(await t.balance()).toEqual({ quota: charged.quota - 8 * H3_2K, used_quota: charged.used_quota + 8 * H3_2K });
    expect(await t.finish(expired.body.id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: expect.stringMatching(/^generation failed: expired/),
    });
    expect(await t.balance()).toEqual(charged);
    expect(await t.ledgerOf(expired.body.id)).toEqual(['consume', 'refund']);
  });
});
