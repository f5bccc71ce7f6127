import { readFileSync } from 'node:fs';
import { SAMPLE_IMAGE_PATH, SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { binaryBody } from './support/binary-body';
import { FalEmulatorServer, startFalEmulator } from './support/fal-emulator';
import { customerCalls, FamilyGateway, familyTasks, startFamilyGateway } from './support/family-gateway';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
const MODELS = ['fal-kling-v2-5-turbo-pro', 'fal-hailuo-02-standard', 'fal-veo-3-1'];
/** The builtin prices: credits per second x 100 quota units. */
const PRICE = { kling: 700, hailuo: 450, veo: 2000, veoAudio: 4000 };
const PNG = readFileSync(SAMPLE_IMAGE_PATH);
const DATA_URI = `data:image/png;base64,${PNG.toString('base64')}`;
const KLING_T2V = 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video';
const KLING_I2V = 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video';

/** fal (platform `fal`) against its emulator, on both surfaces: builtin endpoints through their input_map, refusals, refunds, cancel. */
describeOnSqlite('fal family', (kind) => {
  let family: FamilyGateway<FalEmulatorServer>;
  let gw: TestGateway;
  let fake: FalEmulatorServer;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    family = await startFamilyGateway(kind, startFalEmulator, { name: 'fal-main', platform: 'fal', models: MODELS }, QUOTA);
    ({ gw, fake, customer } = family);
  });
  afterAll(async () => {
    await family?.close();
  });

  const { auth, flat, unified } = customerCalls(() => family);
  const balance = () => gw.balance(customer.userId);
  const lastSubmit = () => fake.submits.at(-1)!;
  const { finish, expectVideo } = familyTasks(() => family, { rounds: 6, stepMs: 6_000 });

  it('text-to-video on /v1/videos: the endpoint of the mode gets the input its input_map makes, charged per second, the video through /content', async () => {
    const before = await balance();
    const res = await flat({ model: 'fal-kling-v2-5-turbo-pro', prompt: 'a lighthouse at dusk', seconds: '10', size: '1080x1920' }).expect(
      200,
    );
    expect(res.body).toMatchObject({ object: 'video', model: 'fal-kling-v2-5-turbo-pro', status: 'queued' });
    expect(lastSubmit().endpoint).toBe(KLING_T2V);
    // 1080p is the entry's only resolution: it needs no field (the map names none).
    expect(lastSubmit().input).toEqual({ prompt: 'a lighthouse at dusk', duration: '10', aspect_ratio: '9:16' });
    expect(lastSubmit().request.headers.authorization).toBe(`Key ${fake.apiKey}`);
    expect(await balance()).toEqual({ quota: before.quota - 10 * PRICE.kling, used_quota: before.used_quota + 10 * PRICE.kling });
    // OpenAI's SDK reads seconds and size: what was asked.
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body).toMatchObject({ seconds: '10', size: '1080x1920' });
    await expectVideo(res.body.id);
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body).toMatchObject({
      status: 'completed',
      seconds: '10',
      size: '1080x1920',
    });
    // Status and result were asked on the app, never on the endpoint's subpath.
    const queued = fake.requests.filter((r) => r.path.includes('/requests/')).map((r) => r.path);
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.every((path) => path.startsWith('/fal-ai/kling-video/requests/'))).toBe(true);
  });

  it('image-to-video on /v1/videos (multipart file part): the image endpoint gets the image inline as a data URI', async () => {
    const res = await auth(gw.http.post('/v1/videos'))
      .field('model', 'fal-kling-v2-5-turbo-pro')
      .field('prompt', 'she turns to the sea')
      .attach('input_reference', PNG, { filename: 'frame.png', contentType: 'image/png' })
      .expect(200);
    expect(lastSubmit().endpoint).toBe(KLING_I2V);
    expect(lastSubmit().input).toEqual({ prompt: 'she turns to the sea', duration: '5', image_url: DATA_URI });
    // Nothing asked: the model's default length, its resolution at its first aspect ratio.
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body).toMatchObject({ seconds: '5', size: '1920x1080' });
    await expectVideo(res.body.id);
  });

  it('image-to-video on /v1/video/generations: Veo 3.1 with audio, seed and seconds written as "6s", priced at the audio tier', async () => {
    const before = await balance();
    const res = await unified({
      model: 'fal-veo-3-1',
      prompt: 'slow dolly in',
      input_reference: 'https://cdn.example.com/first.png',
      duration: 6,
      resolution: '1080p',
      audio: true,
      seed: 42,
      negative_prompt: 'blur',
    }).expect(200);
    expect(lastSubmit().endpoint).toBe('fal-ai/veo3.1/image-to-video');
    expect(lastSubmit().input).toEqual({
      prompt: 'slow dolly in',
      duration: '6s',
      resolution: '1080p',
      generate_audio: true,
      negative_prompt: 'blur',
      seed: 42,
      image_url: 'https://cdn.example.com/first.png',
    });
    expect((await balance()).quota).toBe(before.quota - 6 * PRICE.veoAudio);
    await expectVideo(res.body.id);
    const silent = await unified({ model: 'fal-veo-3-1', prompt: 'waves', aspect_ratio: '9:16' }).expect(200);
    expect(lastSubmit()).toMatchObject({
      endpoint: 'fal-ai/veo3.1',
      input: { prompt: 'waves', duration: '8s', aspect_ratio: '9:16', resolution: '720p', generate_audio: false },
    });
    await expectVideo(silent.body.id);
  });

  it.each([
    [
      'a seed the map does not name',
      { model: 'fal-kling-v2-5-turbo-pro', prompt: 'p', seed: 7 },
      'seed',
      'seed is not taken by fal-kling-v2-5-turbo-pro',
    ],
    [
      'an aspect ratio on Hailuo',
      { model: 'fal-hailuo-02-standard', prompt: 'p', aspect_ratio: '16:9' },
      'aspect_ratio',
      'aspect_ratio is not taken by fal-hailuo-02-standard',
    ],
    [
      'audio on Kling',
      { model: 'fal-kling-v2-5-turbo-pro', prompt: 'p', audio: true },
      'audio',
      'audio is not generated by fal-kling-v2-5-turbo-pro',
    ],
    [
      'a length Kling does not make',
      { model: 'fal-kling-v2-5-turbo-pro', prompt: 'p', seconds: '7' },
      'seconds',
      'seconds must be 5 or 10 seconds for fal-kling-v2-5-turbo-pro',
    ],
    [
      'a resolution Kling does not make',
      { model: 'fal-kling-v2-5-turbo-pro', prompt: 'p', resolution: '720p' },
      'resolution',
      'resolution must be 1080p for fal-kling-v2-5-turbo-pro',
    ],
    [
      'a last frame no route maps',
      { model: 'fal-veo-3-1', prompt: 'p', input_reference: DATA_URI, last_frame: DATA_URI },
      'last_frame',
      'last_frame is not taken by fal-veo-3-1',
    ],
    ['text-to-video without a prompt', { model: 'fal-veo-3-1' }, 'prompt', 'prompt is required (text-to-video)'],
    ['metadata null', { model: 'fal-veo-3-1', prompt: 'p', metadata: null }, 'metadata', 'metadata must be an object'],
    ['metadata a number', { model: 'fal-veo-3-1', prompt: 'p', metadata: 5 }, 'metadata', 'metadata must be an object'],
    ['metadata a list', { model: 'fal-veo-3-1', prompt: 'p', metadata: [] }, 'metadata', 'metadata must be an object'],
    ['metadata true', { model: 'fal-veo-3-1', prompt: 'p', metadata: true }, 'metadata', 'metadata must be an object'],
  ])('refuses %s with a 400 naming the field, nothing charged, nothing sent', async (_name, body, param, message) => {
    const submits = fake.submits.length;
    const before = await balance();
    const res = await flat(body).expect(400);
    expect(res.body.error).toMatchObject({ param, message });
    const { seconds, ...rest } = body as { seconds?: string };
    const viaUnified = await unified(seconds !== undefined ? { ...rest, duration: Number(seconds) } : rest).expect(400);
    expect(JSON.stringify(viaUnified.body)).toContain(param === 'seconds' ? 'duration' : param);
    expect(fake.submits).toHaveLength(submits);
    expect(await balance()).toEqual(before);
  });

  it.each([
    ['[simulate:fail]', "generation failed: runner_server_error: the provider's runner failed"],
    ['[simulate:moderation]', 'content moderation failed: content_policy_violation'],
  ])('a request whose result is an error (%s) ends failed, refunded exactly once, never with fal text', async (marker, reason) => {
    const before = await balance();
    fake.scriptNext(['IN_QUEUE', 'COMPLETED']);
    const res = await flat({ model: 'fal-kling-v2-5-turbo-pro', prompt: `a storm ${marker}` }).expect(200);
    const data = await finish(res.body.id);
    expect(data).toMatchObject({ status: 'FAILURE', fail_reason: reason });
    expect(JSON.stringify(data)).not.toMatch(/10\.0\.0\.7|flagged/);
    expect((await auth(gw.http.get(`/v1/videos/${res.body.id}`)).expect(200)).body).toMatchObject({
      status: 'failed',
      error: { message: reason },
    });
    expect(await balance()).toEqual(before);
    const ledger = (await gw.admin.get(`/api/admin/logs?task_id=${res.body.id}`).expect(200)).body.data as Array<{ type: string }>;
    expect(ledger.map((row) => row.type).sort()).toEqual(['consume', 'refund']);
  });

  it('cancels a request still IN_QUEUE (PUT cancel_url, refunded); a running one is 409 cancel_not_supported, fal not asked', async () => {
    const before = await balance();
    fake.scriptNext(['IN_QUEUE']);
    const queued = await flat({ model: 'fal-kling-v2-5-turbo-pro', prompt: 'wait in line' }).expect(200);
    const cancelled = await auth(gw.http.post(`/v1/videos/${queued.body.id}/cancel`)).expect(200);
    expect(cancelled.body).toMatchObject({ id: queued.body.id, status: 'failed', error: { code: 'cancelled' } });
    const requestId = (await gw.admin.get(`/api/admin/tasks/${queued.body.id}`).expect(200)).body.upstream_task_id as string;
    expect(fake.cancels().map((r) => r.path)).toEqual([`/fal-ai/kling-video/requests/${requestId}/cancel`]);
    expect(fake.cancels()[0].headers.authorization).toBe(`Key ${fake.apiKey}`);
    expect(await balance()).toEqual(before);

    fake.scriptNext(['IN_PROGRESS']);
    const running = await unified({ model: 'fal-kling-v2-5-turbo-pro', prompt: 'already going' }).expect(200);
    const refused = await auth(gw.http.post(`/v1/video/generations/${running.body.id}/cancel`)).expect(409);
    expect(refused.body).toMatchObject({ code: 'cancel_not_supported' });
    expect(fake.cancels()).toHaveLength(1);
  });

  it('answers 503 with Retry-After, nothing charged, when the account is locked (fal 403), and 429 when fal throttles', async () => {
    const before = await balance();
    const locked = await flat({ model: 'fal-kling-v2-5-turbo-pro', prompt: 'p [simulate:locked]' }).expect(503);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(JSON.stringify(locked.body)).not.toMatch(/Exhausted balance/);
    fake.failNextSubmit({ status: 429, body: { detail: 'slow down' }, headers: { 'retry-after': '9' } });
    const busy = await flat({ model: 'fal-kling-v2-5-turbo-pro', prompt: 'p' }).expect(429);
    expect(busy.headers['retry-after']).toBe('9');
    expect(await balance()).toEqual(before);
  });

  it('lists the family in GET /api/admin/platforms with its public base URL', async () => {
    const platforms = (await gw.admin.get('/api/admin/platforms').expect(200)).body.data as Array<Record<string, unknown>>;
    expect(platforms.find((entry) => entry.platform === 'fal')).toMatchObject({
      label: { en: 'fal', 'zh-CN': 'fal' },
      default_base_url: 'https://queue.fal.run',
      models: MODELS,
    });
  });
});

describeOnSqlite('fal family: the embedded simulator', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('its seeded channel serves the builtin models to the sample video; moderation ends failed and refunded; busy and locked are a 429 and a 503', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const auth = `Bearer ${key}`;
    const channels = (await gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ platform: string; models: string[] }>;
    expect(channels.find((channel) => channel.platform === 'fal')!.models).toEqual(MODELS);
    const submit = (body: object) => gw.http.post('/v1/video/generations').set('Authorization', auth).send(body);
    const ended = async (id: string) => {
      let data = { status: '' };
      for (let round = 0; round < 8 && !['SUCCESS', 'FAILURE'].includes(data.status); round++) {
        gw.clock.advance(3_000);
        await gw.sync();
        data = (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', auth).expect(200)).body.data;
      }
      return data;
    };
    const created = (await submit({ model: 'fal-hailuo-02-standard', prompt: 'a kite' }).expect(200)).body;
    expect(await ended(created.id ?? created.data?.task_id)).toMatchObject({ status: 'SUCCESS' });
    const id = created.id ?? created.data?.task_id;
    const content = await gw.http.get(`/v1/videos/${id}/content`).set('Authorization', auth).buffer(true).parse(binaryBody).expect(200);
    expect(Buffer.compare(content.body as Buffer, readFileSync(SAMPLE_VIDEO_PATH))).toBe(0);
    const charged = await gw.balance(userId);
    expect(charged).toEqual({ quota: QUOTA - 6 * PRICE.hailuo, used_quota: 6 * PRICE.hailuo });
    const moderated = (await submit({ model: 'fal-hailuo-02-standard', prompt: 'x [simulate:moderation]' }).expect(200)).body;
    expect(await ended(moderated.id ?? moderated.data?.task_id)).toMatchObject({
      status: 'FAILURE',
      fail_reason: 'content moderation failed: content_policy_violation',
    });
    await submit({ model: 'fal-hailuo-02-standard', prompt: 'x [simulate:busy]' }).expect(429);
    await submit({ model: 'fal-hailuo-02-standard', prompt: 'x [simulate:locked]' }).expect(503);
    expect(await gw.balance(userId)).toEqual(charged);
  });
});
