import { TaskReadRepository } from '../src/tasks/repositories/task-read.repository';
import { AlphaFamilyModule } from '../src/families/alpha/alpha-family.module';
import { StagedImageInputs } from '../src/families/shared/staged-image-inputs.service';
import { alphaChannelBody, fakePng, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDatabase('videos: family A submits', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let images: LoopbackServer;
  const png = fakePng(4096);
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    // A public image host: one image, a redirect to it, a 404, a huge one and one that never answers.
    images = await startLoopbackServer((req, res) => {
      if (req.path === '/cat.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        res.end(png);
      } else if (req.path === '/moved') {
        res.writeHead(302, { location: '/cat.png' });
        res.end();
      } else if (req.path === '/huge.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 64 * 1024 * 1024 });
        res.write(png);
      } else if (req.path === '/stream.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        res.end(Buffer.alloc(3 * 1024 * 1024));
      } else if (req.path !== '/hang.png') {
        res.writeHead(404);
        res.end();
      }
    });
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(fake));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await images?.close();
  });
  beforeEach(() => fake.reset());

  const submit = (key: string, body: object) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(body);
  const storedTask = (taskId: string) => gw.app.get(TaskReadRepository).findByTaskId(taskId);

  it('submits text-to-video: charges the quoted price, answers the flat form, forwards every field', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    // Every metadata field the provider knows is forwarded as given.
    const forwarded = {
      aspect_ratio: '21:9',
      seed: 42,
      negative_prompt: 'blur',
      camera_movement: 'zoom_in',
      template_id: 7,
      style: 'anime',
      water_mark: true,
      generate_audio_switch: true,
    };
    const body = {
      model: 'alpha/V6',
      prompt: 'a red fox running through snow',
      duration: 8,
      resolution: '1080P',
      size: '360p', // resolution beats size
      metadata: { ...forwarded, unknown_field: 'dropped' },
    };
    const res = await submit(key, body).expect(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^task_[A-Za-z0-9]{24,}$/),
      task_id: res.body.id,
      object: 'video',
      model: 'alpha/v6',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
    });
    expect(Math.abs(res.body.created_at - Math.floor(gw.clock.now() / 1000))).toBeLessThanOrEqual(1);

    const [generate] = fake.calls('generate');
    expect(generate.path).toBe('/openapi/v2/video/text/generate');
    expect(generate.headers['api-key']).toBe(fake.apiKey);
    expect(generate.headers['ai-trace-id']).toMatch(UUID);
    expect(generate.json).toEqual({ model: 'v6', prompt: 'a red fox running through snow', duration: 8, quality: '1080p', ...forwarded });
    expect(fake.calls('upload')).toHaveLength(0);

    // v6 1080p with audio: 23 credits a second x 100 quota units x 8 s.
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 18_400, used_quota: 18_400 });
    const consumed = await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=consume`).expect(200);
    expect(consumed.body.data).toEqual([
      expect.objectContaining({ task_id: res.body.id, model: 'alpha/v6', quota: -18_400, balance_after: QUOTA - 18_400 }),
    ]);
    const task = await storedTask(res.body.id);
    expect(task).toMatchObject({
      status: 'NOT_START',
      upstreamModel: 'v6',
      upstreamTaskId: String([...fake.videos.keys()][0]),
      action: 'textGenerate',
    });
    expect(task!.upstreamTaskId).not.toBe(res.body.id);
  });

  itOnSqliteOnly(kind)('maps a pixel size to the nearest quality and aspect ratio, with defaults of 5 s', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    await submit(key, { model: 'alpha/v5', prompt: 'portrait clip', size: '720x1280' }).expect(200);
    expect(fake.calls('generate')[0].json).toEqual({
      model: 'v5',
      prompt: 'portrait clip',
      duration: 5,
      quality: '720p',
      aspect_ratio: '9:16',
    });
    await submit(key, { model: 'alpha/v4', prompt: 'fast', size: '960x540', metadata: { motion_mode: 'fast' } }).expect(200);
    expect(fake.calls('generate')[1].json).toEqual({
      model: 'v4',
      prompt: 'fast',
      duration: 5,
      quality: '540p',
      aspect_ratio: '16:9',
      motion_mode: 'fast',
    });
    // v5 720p 5 s is 60 credits; v4 540p 5 s is 45 credits, doubled for fast motion.
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 6000 - 9000, used_quota: 15_000 });
  });

  itOnSqliteOnly(kind)('uploads an image URL (following a redirect) and generates from the img_id it got', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const res = await submit(key, {
      model: 'alpha/v6',
      prompt: 'the cat walks',
      image: `${images.url}/moved`,
      metadata: { aspect_ratio: '1:1' },
    }).expect(200);
    const [upload] = fake.calls('upload');
    expect(upload.headers['api-key']).toBe(fake.apiKey);
    expect(upload.headers['ai-trace-id']).toMatch(UUID);
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(fake.uploads).toEqual([expect.objectContaining({ filename: 'image.png', contentType: 'image/png' })]);
    expect(fake.uploads[0].bytes!.equals(png)).toBe(true);
    const [generate] = fake.calls('generate');
    expect(generate.path).toBe('/openapi/v2/video/img/generate');
    // The image decides the shape: no aspect_ratio upstream.
    expect(generate.json).toEqual({ model: 'v6', prompt: 'the cat walks', duration: 5, quality: '720p', img_id: fake.uploads[0].imgId });
    expect(generate.headers['ai-trace-id']).not.toBe(upload.headers['ai-trace-id']);
    const task = await storedTask(res.body.id);
    expect(task).toMatchObject({ action: 'imageGenerate' });
    expect(task!.request).toMatchObject({
      mode: 'image',
      img_id: fake.uploads[0].imgId,
      image: { source: 'url', url: `${images.url}/moved`, mime: 'image/png', size: png.length },
    });
  });

  itOnSqliteOnly(kind)('uploads a data URI image and the images[] form alike', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), fakePng(1000)]);
    await submit(key, {
      model: 'alpha/c1',
      prompt: 'from data',
      image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      duration: 3,
    }).expect(200);
    await submit(key, { model: 'alpha/c1', prompt: 'from images', images: [`${images.url}/cat.png`] }).expect(200);
    expect(fake.uploads.map((upload) => [upload.contentType, upload.filename])).toEqual([
      ['image/jpeg', 'image.jpg'],
      ['image/png', 'image.png'],
    ]);
    expect(fake.uploads[0].bytes!.equals(jpeg)).toBe(true);
    expect(fake.uploads[1].bytes!.equals(png)).toBe(true);
    expect(fake.calls('generate').map((call) => (call.json as { img_id: number }).img_id)).toEqual(
      fake.uploads.map((upload) => upload.imgId),
    );
  });

  itOnSqliteOnly(kind)('takes a multipart submit with seconds, pixel size and an input_reference file part', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .field('model', 'alpha/v6')
      .field('prompt', 'multipart fox')
      .field('seconds', '4')
      .field('size', '1280x720')
      .field('metadata', JSON.stringify({ seed: 9, water_mark: false }))
      .attach('input_reference', png, { filename: 'first.png', contentType: 'image/png' })
      .expect(200);
    expect(res.body.status).toBe('queued');
    expect(fake.uploads[0].bytes!.equals(png)).toBe(true);
    expect(fake.calls('generate')[0].json).toEqual({
      model: 'v6',
      prompt: 'multipart fox',
      duration: 4,
      quality: '720p',
      seed: 9,
      water_mark: false,
      img_id: fake.uploads[0].imgId,
    });
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 9 * 100 * 4, used_quota: 3600 });
  });

  itOnSqliteOnly(kind)('forwards a given metadata.img_id without fetching or uploading anything', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const imgId = await fake.storeImage();
    const fetchesBefore = images.requests.length;
    await submit(key, { model: 'alpha/v6', prompt: 'known image', image: `${images.url}/cat.png`, metadata: { img_id: imgId } }).expect(
      200,
    );
    expect(images.requests.length).toBe(fetchesBefore);
    expect(fake.calls('upload')).toHaveLength(0);
    expect(fake.calls('generate')[0].json).toMatchObject({ img_id: imgId });
  });

  itOnSqliteOnly(kind)('refuses images it cannot fetch, too large ones and slow ones with 400, before charging', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    // Family A's own instance (another family's module may provide one too).
    const limits = gw.app.select(AlphaFamilyModule).get(StagedImageInputs, { strict: true }).limits;
    const saved = { ...limits };
    try {
      const missing = await submit(key, { model: 'alpha/v6', prompt: 'x', image: `${images.url}/gone.png` }).expect(400);
      expect(missing.body.error).toMatchObject({
        message: 'image URL answered HTTP 404; it must be publicly accessible and not expired',
        param: 'image',
      });
      const declared = await submit(key, { model: 'alpha/v6', prompt: 'x', image: `${images.url}/huge.png` }).expect(400);
      expect(declared.body.error).toMatchObject({ message: 'image is larger than 20 MB', param: 'image' });
      limits.maxBytes = 2 * 1024 * 1024;
      const streamed = await submit(key, { model: 'alpha/v6', prompt: 'x', image: `${images.url}/stream.png` }).expect(400);
      expect(streamed.body.error).toMatchObject({ message: 'image is larger than 2 MB', param: 'image' });
      limits.timeoutMs = 200;
      const slow = await submit(key, { model: 'alpha/v6', prompt: 'x', input_reference: `${images.url}/hang.png` }).expect(400);
      expect(slow.body.error).toMatchObject({ message: 'input_reference URL could not be fetched (timeout)', param: 'input_reference' });
    } finally {
      Object.assign(limits, saved);
    }
    expect(fake.requests).toHaveLength(0);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  itOnSqliteOnly(kind)('refuses with 400 and no charge when the provider refuses the image upload', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    fake.inject('upload', { errCode: 500031, message: 'image format error' }, 1);
    const res = await submit(key, { model: 'alpha/v6', prompt: 'x', image: `${images.url}/cat.png` }).expect(400);
    expect(res.body.error).toMatchObject({
      message: 'upstream rejected the request: ErrCode 500031: image format error',
      code: 'invalid_request',
    });
    expect(fake.calls('generate')).toHaveLength(0);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  it('returns the first task for a repeated Idempotency-Key, charged and sent once', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const body = { model: 'alpha/v5', prompt: 'once only' };
    const first = await submit(key, body).set('Idempotency-Key', 'order-17').expect(200);
    const again = await submit(key, body).set('Idempotency-Key', 'order-17').expect(200);
    expect(again.body.id).toBe(first.body.id);
    expect(fake.calls('generate')).toHaveLength(1);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 6000, used_quota: 6000 });
    const other = await submit(key, { ...body, prompt: 'something else' })
      .set('Idempotency-Key', 'order-17')
      .expect(409);
    expect(other.body.error).toMatchObject({ param: 'Idempotency-Key', code: 'conflict' });
  });
});
