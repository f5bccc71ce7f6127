import { binaryBody } from './support/binary-body';
import { MinimaxEmulatorServer, startMinimaxEmulator } from './support/minimax-emulator';
import { customerCalls, FamilyGateway, startFamilyGateway } from './support/family-gateway';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
/** The seeded default: 5 credits per second at 768P (100 quota units per credit). */
const PER_SECOND_768P = 500;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(400, 9)]);

/** MiniMax Hailuo (platform `minimax`) against a fake of its video API v1 on loopback. */
describeOnSqlite('MiniMax Hailuo family', (kind) => {
  let family: FamilyGateway<MinimaxEmulatorServer>;
  let gw: TestGateway;
  let fake: MinimaxEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    family = await startFamilyGateway(
      kind,
      startMinimaxEmulator,
      { name: 'minimax', platform: 'minimax', models: ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-2.3-Fast', 'MiniMax-Hailuo-02'] },
      QUOTA,
    );
    ({ gw, fake, customer } = family);
  });
  afterAll(async () => {
    await family?.close();
  });

  const { auth, flat, unified, flatTask, unifiedTask } = customerCalls(() => family);
  const pollUntilDone = async (id: string) => {
    for (let round = 0; round < 8; round++) {
      const task = await flatTask(id);
      if (task.status === 'completed' || task.status === 'failed') return task;
      gw.clock.advance(15_000);
      await gw.sync();
    }
    return flatTask(id);
  };
  const contentOf = async (id: string) =>
    (
      await auth(gw.http.get(`/v1/videos/${id}/content`))
        .buffer(true)
        .parse(binaryBody)
        .expect(200)
    ).body as Buffer;

  it('text to video on /v1/videos: sends MiniMax its body with the Bearer key, charges 6 s at 768P, and serves the video the gateway fetched via files/retrieve', async () => {
    const before = await gw.balance(customer.userId);
    const res = await flat({
      model: 'minimax-hailuo-2.3',
      prompt: 'a lighthouse at dusk [Truck left]',
      seconds: '6',
      metadata: { prompt_optimizer: false },
    }).expect(200);
    expect(res.body).toMatchObject({ object: 'video', model: 'MiniMax-Hailuo-2.3', status: 'queued' });
    expect(fake.submits().at(-1)).toEqual({
      model: 'MiniMax-Hailuo-2.3',
      prompt: 'a lighthouse at dusk [Truck left]',
      duration: 6,
      resolution: '768P',
      prompt_optimizer: false,
    });
    expect(await gw.balance(customer.userId)).toEqual({
      quota: before.quota - 6 * PER_SECOND_768P,
      used_quota: before.used_quota + 6 * PER_SECOND_768P,
    });
    expect(await pollUntilDone(res.body.id)).toMatchObject({ status: 'completed', size: '1366x768' });
    expect(Buffer.compare(await contentOf(res.body.id), fake.videoBytes)).toBe(0);
    // Every API call carried the key; the pre-signed download did not need it.
    expect(fake.requests.filter((r) => !r.path.startsWith('/cdn/')).every((r) => r.headers.authorization === `Bearer ${fake.apiKey}`)).toBe(
      true,
    );
    expect(fake.requests.some((r) => r.path === '/v1/files/retrieve')).toBe(true);
    expect(fake.downloads().length).toBeGreaterThan(0);
    expect(fake.downloads().every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(JSON.stringify(await flatTask(res.body.id))).not.toContain(fake.url);
  });

  it('image to video on /v1/videos (multipart file part): the first frame goes as a data URL, and the task completes', async () => {
    const res = await auth(gw.http.post('/v1/videos'))
      .field('model', 'MiniMax-Hailuo-2.3-Fast')
      .field('prompt', 'she turns to the sea')
      .field('seconds', '10')
      .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
      .expect(200);
    expect(fake.submits().at(-1)).toEqual({
      model: 'MiniMax-Hailuo-2.3-Fast',
      prompt: 'she turns to the sea',
      duration: 10,
      resolution: '768P',
      first_frame_image: `data:image/png;base64,${PNG.toString('base64')}`,
    });
    expect(await pollUntilDone(res.body.id)).toMatchObject({ status: 'completed' });
    expect(Buffer.compare(await contentOf(res.body.id), fake.videoBytes)).toBe(0);
  });

  it('text and image to video on /v1/video/generations complete, with the gateway signed link serving the bytes', async () => {
    const text = await unified({ model: 'MiniMax-Hailuo-02', prompt: 'waves', duration: 6, resolution: '1080P' }).expect(200);
    expect(fake.submits().at(-1)).toEqual({ model: 'MiniMax-Hailuo-02', prompt: 'waves', duration: 6, resolution: '1080P' });
    const frame = `${fake.url}/frames/first.png`;
    const last = `data:image/jpeg;base64,${Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]).toString('base64')}`;
    const image = await unified({
      model: 'MiniMax-Hailuo-02',
      prompt: 'a door opens',
      duration: 10,
      resolution: '512P',
      input_reference: frame,
      last_frame: last,
    }).expect(200);
    expect(fake.submits().at(-1)).toEqual({
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
      expect(task.result_url).toMatch(new RegExp(`^${gw.url}/v1/videos/${id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`));
      const signed = await gw.http.get(task.result_url.slice(gw.url.length)).buffer(true).parse(binaryBody).expect(200);
      expect(Buffer.compare(signed.body as Buffer, fake.videoBytes)).toBe(0);
    }
    expect((await unifiedTask(image.body.id)).action).toBe('imageGenerate');
  });

  it.each([
    ['flat', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', seconds: '8' }, 'seconds'],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', duration: 5 }, 'duration'],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', duration: 10, resolution: '1080P' }, 'duration'],
    ['flat', { model: 'MiniMax-Hailuo-2.3-Fast', prompt: 'p' }, 'input_reference'],
    ['unified', { model: 'MiniMax-Hailuo-02', prompt: 'p', resolution: '512P' }, 'resolution'],
    ['flat', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', size: '1280x720' }, 'size'],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', aspect_ratio: '9:16' }, 'aspect_ratio'],
    [
      'flat',
      { model: 'MiniMax-Hailuo-2.3', prompt: 'p', input_reference: 'https://x.example/f.png', last_frame: 'https://x.example/l.png' },
      'last_frame',
    ],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', negative_prompt: 'blur' }, 'negative_prompt'],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', seed: 4 }, 'seed'],
    ['flat', { model: 'MiniMax-Hailuo-2.3', prompt: 'p', metadata: { duration: 10 } }, 'metadata.duration'],
    ['unified', { model: 'MiniMax-Hailuo-2.3', prompt: 'x'.repeat(2001) }, 'prompt'],
    [
      'flat',
      { model: 'MiniMax-Hailuo-2.3-Fast', prompt: 'p', input_reference: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' },
      'input_reference',
    ],
  ])('refuses a %s body breaking a model rule with a 400 naming the field, nothing charged', async (form, body, param) => {
    const before = await gw.balance(customer.userId);
    const submits = fake.submits().length;
    const res = await (form === 'flat' ? flat(body) : unified(body)).expect(400);
    expect(JSON.stringify(res.body)).toContain(param);
    if (form === 'flat') expect(res.body.error.param).toBe(param);
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(fake.submits()).toHaveLength(submits);
  });

  it.each([
    [{ fail: 1000 }, 'generation failed: 1000: unknown provider error'],
    [{ fail: 1027 }, 'content moderation failed: 1027: the output was flagged as sensitive'],
  ])('a task MiniMax fails (%j) ends failed with its reason and is refunded exactly once', async (step, reason) => {
    const before = await gw.balance(customer.userId);
    fake.scriptNext(['Queueing', step]);
    const res = await flat({ model: 'MiniMax-Hailuo-2.3', prompt: 'a storm' }).expect(200);
    const task = await pollUntilDone(res.body.id);
    expect(task).toMatchObject({ status: 'failed', error: { message: reason } });
    expect(JSON.stringify(task)).not.toMatch(/10\.0\.0\.7/);
    expect(await gw.balance(customer.userId)).toEqual(before);
    const rows = (await gw.admin.get(`/api/admin/logs?task_id=${res.body.id}`).expect(200)).body.data as Array<{ type: string }>;
    expect(rows.map((row) => row.type).sort()).toEqual(['consume', 'refund']);
  });

  it('input moderation on submit (1026): the task is failed `content moderation failed` and refunded', async () => {
    const before = await gw.balance(customer.userId);
    fake.failNextSubmit(1026);
    const res = await unified({ model: 'MiniMax-Hailuo-2.3', prompt: 'something flagged' }).expect(200);
    const task = await unifiedTask(res.body.id);
    expect(task).toMatchObject({ status: 'FAILURE', fail_reason: expect.stringMatching(/^content moderation failed/) });
    expect(JSON.stringify(task)).not.toMatch(/sk-leaked|10\.0\.0\.1/);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('2013 on submit is a 400 naming only the code; 1002 a 429 with Retry-After; neither charged', async () => {
    const before = await gw.balance(customer.userId);
    fake.failNextSubmit(2013);
    const bad = await flat({ model: 'MiniMax-Hailuo-2.3', prompt: 'p' }).expect(400);
    expect(bad.body.error.message).toBe('upstream rejected the request: 2013: invalid params');
    fake.failNextSubmit(1002);
    const busy = await flat({ model: 'MiniMax-Hailuo-2.3', prompt: 'p' }).expect(429);
    expect(busy.headers['retry-after']).toBeDefined();
    expect(JSON.stringify([bad.body, busy.body])).not.toMatch(/sk-leaked|10\.0\.0\.1/);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('insufficient balance (1008) on the only channel: 503 with Retry-After, nothing charged', async () => {
    const before = await gw.balance(customer.userId);
    fake.failNextSubmit(1008);
    const res = await flat({ model: 'MiniMax-Hailuo-2.3', prompt: 'p' }).expect(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(JSON.stringify(res.body)).not.toMatch(/sk-leaked|10\.0\.0\.1|minimax-test-key/);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('GET /api/admin/platforms lists the family with its labels and models', async () => {
    const data = (await gw.admin.get('/api/admin/platforms').expect(200)).body.data as Array<{
      platform: string;
      label: unknown;
      models: string[];
    }>;
    expect(data.find((p) => p.platform === 'minimax')).toMatchObject({
      label: { en: 'MiniMax Hailuo', 'zh-CN': 'MiniMax 海螺' },
      models: ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-2.3-Fast', 'MiniMax-Hailuo-02'],
    });
  });
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
      models: ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-2.3-Fast', 'MiniMax-Hailuo-02'],
      priority: 10,
    });
    await gw.createChannel({
      name: 'healthy',
      platform: 'minimax',
      base_url: healthy.url,
      api_key: healthy.apiKey,
      models: ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-2.3-Fast', 'MiniMax-Hailuo-02'],
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
