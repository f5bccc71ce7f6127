import { betaChannelBody, BetaEmulatorServer, SAMPLE_MEDIA, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const wrapper = (message: string, code = 'invalid_request') => ({ code, message, data: null });

/** Everything refused before a charge (or reverted at submit), in the wrapper shape. */
describeOnSqlite('generations: family B refusals', (kind) => {
  let gw: TestGateway;
  let fake: BetaEmulatorServer;
  let customer: { userId: number; key: string };
  let png: string;
  let mp4: string;

  const submit = (body: unknown, key = customer.key) =>
    gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const refs = (count: number, type = 'reference_image') => Array.from({ length: count }, () => ({ type, url: png }));

  beforeAll(async () => {
    fake = await startBetaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(betaChannelBody(fake));
    customer = await gw.createCustomer({ quota: 100_000 });
    png = fake.serveMedia('ok.png', SAMPLE_MEDIA.png);
    mp4 = fake.serveMedia('ok.mp4', SAMPLE_MEDIA.mp4);
    fake.serveMedia('page.png', SAMPLE_MEDIA.html);
    fake.serveMedia('huge.png', Buffer.concat([SAMPLE_MEDIA.png, Buffer.alloc(11 * 1024 * 1024)]));
    fake.serveMedia('huge.mp4', Buffer.concat([SAMPLE_MEDIA.mp4, Buffer.alloc(101 * 1024 * 1024)]));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const cases: Array<[string, () => unknown, string]> = [
    ['prompt missing', () => ({ model: 'beta-1.0-t2v' }), 'prompt is required'],
    ['prompt empty', () => ({ model: 'beta-1.0-t2v', prompt: '   ' }), 'prompt is required'],
    ['unknown family B version', () => ({ model: 'beta-2.0-t2v', prompt: 'p' }), 'unknown model: beta-2.0-t2v'],
    ['unknown model', () => ({ model: 'sora-9', prompt: 'p' }), 'unknown model: sora-9'],
    ['model missing', () => ({ prompt: 'p' }), 'model is required'],
    ['body not an object', () => [1, 2], 'request body must be a JSON object'],
    ['prompt not a string', () => ({ model: 'beta-1.0-t2v', prompt: 42 }), 'prompt must be a string'],
    [
      'i2v without first frame',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p' }),
      'beta-1.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame',
    ],
    [
      'i2v with two first frames',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p', input_reference: png, metadata: { input: { media: refs(1, 'first_frame') } } }),
      'beta-1.0-i2v takes exactly one first-frame image: send input_reference or one first_frame media element, not both',
    ],
    [
      'i2v with a reference image',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p', metadata: { input: { media: refs(1) } } }),
      'beta-1.0-i2v accepts only first_frame media; metadata.input.media[0] is of type reference_image',
    ],
    [
      'r2v with no reference image',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p' }),
      'beta-1.0-r2v requires at least 1 reference_image in metadata.input.media',
    ],
    [
      'r2v with 10 reference images',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: refs(10) } } }),
      'beta-1.0-r2v accepts at most 9 reference images, got 10',
    ],
    [
      'r2v with a video',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [...refs(1), { type: 'video', url: mp4 }] } } }),
      'beta-1.0-r2v accepts only reference_image media; metadata.input.media[1] is of type video',
    ],
    [
      'r2v with input_reference',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', input_reference: png, metadata: { input: { media: refs(1) } } }),
      'input_reference is only supported by beta-1.0-i2v, not beta-1.0-r2v',
    ],
    [
      'video-edit without video',
      () => ({ model: 'beta-1.0-video-edit', prompt: 'p', metadata: { input: { media: refs(1) } } }),
      'metadata.input.media must contain exactly one element of type video for beta-1.0-video-edit, got 0',
    ],
    [
      'video-edit with two videos',
      () => ({
        model: 'beta-1.0-video-edit',
        prompt: 'p',
        metadata: {
          input: {
            media: [
              { type: 'video', url: mp4 },
              { type: 'video', url: mp4 },
            ],
          },
        },
      }),
      'metadata.input.media must contain exactly one element of type video for beta-1.0-video-edit, got 2',
    ],
    [
      'video-edit with 6 reference images',
      () => ({ model: 'beta-1.0-video-edit', prompt: 'p', metadata: { input: { media: [{ type: 'video', url: mp4 }, ...refs(6)] } } }),
      'beta-1.0-video-edit accepts at most 5 reference images, got 6',
    ],
    [
      'video-edit with a first frame',
      () => ({
        model: 'beta-1.0-video-edit',
        prompt: 'p',
        metadata: { input: { media: [{ type: 'video', url: mp4 }, ...refs(1, 'first_frame')] } },
      }),
      'beta-1.0-video-edit accepts only video and reference_image media; metadata.input.media[1] is of type first_frame',
    ],
    [
      't2v with media',
      () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: { input: { media: refs(1) } } }),
      'beta-1.0-t2v accepts no media; metadata.input.media[0] is of type reference_image',
    ],
    [
      'unknown media type',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'audio', url: png }] } } }),
      'metadata.input.media[0].type must be one of first_frame, reference_image, video',
    ],
    [
      'media without url',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'reference_image' }] } } }),
      'metadata.input.media[0].url is required',
    ],
    [
      'media not an array',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: 'x' } } }),
      'metadata.input.media must be an array of {type, url} elements',
    ],
    ['duration 2', () => ({ model: 'beta-1.0-t2v', prompt: 'p', duration: 2 }), 'duration must be an integer between 3 and 15 (seconds)'],
    ['duration 16', () => ({ model: 'beta-1.0-t2v', prompt: 'p', duration: 16 }), 'duration must be an integer between 3 and 15 (seconds)'],
    [
      'duration 5.5',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', duration: 5.5, metadata: { input: { media: refs(1) } } }),
      'duration must be an integer between 3 and 15 (seconds)',
    ],
    [
      'seed -1',
      () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: { seed: -1 } }),
      'metadata.seed must be an integer between 0 and 2147483647',
    ],
    [
      'seed too large',
      () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: { seed: 2147483648 } }),
      'metadata.seed must be an integer between 0 and 2147483647',
    ],
    ['size 480P', () => ({ model: 'beta-1.0-t2v', prompt: 'p', size: '480P' }), 'size must be 720P or 1080P'],
    [
      'ratio 21:9',
      () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: { ratio: '21:9' } }),
      'metadata.ratio must be one of 16:9, 9:16, 1:1, 4:3, 3:4',
    ],
    [
      'watermark not a boolean',
      () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: { watermark: 'yes' } }),
      'metadata.watermark must be a boolean',
    ],
    [
      'audio_setting unknown',
      () => ({
        model: 'beta-1.0-video-edit',
        prompt: 'p',
        metadata: { audio_setting: 'loud', input: { media: [{ type: 'video', url: mp4 }] } },
      }),
      'metadata.audio_setting must be auto or origin',
    ],
    ['metadata not an object', () => ({ model: 'beta-1.0-t2v', prompt: 'p', metadata: 'x' }), 'metadata must be an object'],
    [
      'media URL not http(s)',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p', input_reference: 'ftp://example.com/a.png' }),
      'input_reference must be an http(s) URL',
    ],
    [
      'media URL garbage',
      () => ({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'reference_image', url: 'not a url' }] } } }),
      'metadata.input.media[0].url must be an http(s) URL',
    ],
    [
      'media URL answering 404',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p', input_reference: `${fake.url}/media/missing.png` }),
      'input_reference is not reachable (HTTP 404): the URL must be publicly accessible and not expired',
    ],
    [
      'image that is an HTML page',
      () => ({ model: 'beta-1.0-i2v', prompt: 'p', input_reference: `${fake.url}/media/page.png` }),
      'input_reference must be a JPEG, PNG or WEBP image (media type first_frame)',
    ],
    [
      'video that is an image',
      () => ({ model: 'beta-1.0-video-edit', prompt: 'p', metadata: { input: { media: [{ type: 'video', url: png }] } } }),
      'metadata.input.media[0].url must be an MP4 or MOV video (media type video)',
    ],
    [
      'image over 10 MB',
      () => ({
        model: 'beta-1.0-r2v',
        prompt: 'p',
        metadata: { input: { media: [...refs(1), { type: 'reference_image', url: `${fake.url}/media/huge.png` }] } },
      }),
      'metadata.input.media[1].url is too large: 11.0 MB, at most 10 MB',
    ],
    [
      'video over 100 MB',
      () => ({
        model: 'beta-1.0-video-edit',
        prompt: 'p',
        metadata: { input: { media: [{ type: 'video', url: `${fake.url}/media/huge.mp4` }] } },
      }),
      'metadata.input.media[0].url is too large: 101.0 MB, at most 100 MB',
    ],
  ];

  it.each(cases)('400 before any charge: %s', async (_name, body, message) => {
    const before = await gw.balance(customer.userId);
    const submitsBefore = fake.submits().length;
    const res = await submit(body()).expect(400);
    expect(res.body).toEqual(wrapper(message));
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(fake.submits()).toHaveLength(submitsBefore);
  });

  it('hands gamma models to the family C use case instead of refusing them as unknown', async () => {
    const res = await submit({
      model: 'gamma-2-0',
      prompt: 'p',
      duration: 5,
      metadata: { content: [{ type: 'image_url', image_url: { url: 'asset://asset-not-mine' } }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).not.toBe('unknown model: gamma-2-0');
    expect(await gw.balance(customer.userId)).toEqual({ quota: 100_000, used_quota: 0 });
  });

  it('refuses an over-long or empty Idempotency-Key before any charge (the same rule as on /v1/videos)', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await submit({ model: 'beta-1.0-t2v', prompt: 'p' }).set('Idempotency-Key', key).expect(400);
      expect(res.body).toEqual(wrapper('Idempotency-Key must be 1 to 255 characters'));
    }
  });

  it('leaves no ledger entry for refused requests', async () => {
    const logs = await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=consume`).expect(200);
    expect(logs.body.total).toBe(0);
  });

  it('401, 403 and 402 in the wrapper shape, without charge', async () => {
    const body = { model: 'beta-1.0-t2v', prompt: 'p' };
    const missing = await gw.http.post('/v1/video/generations').send(body).expect(401);
    expect(missing.body).toEqual(wrapper('missing api key: send Authorization: Bearer <API_KEY>', 'unauthorized'));
    // The key without its scheme: told how to send it, the key never echoed.
    const bare = await gw.http.post('/v1/video/generations').set('Authorization', customer.key).send(body).expect(401);
    expect(bare.body).toEqual(wrapper('Authorization has no Bearer scheme: send Authorization: Bearer <API_KEY>', 'unauthorized'));
    const flat = await gw.http.get('/v1/videos').set('Authorization', customer.key).expect(401);
    expect(flat.body.error.message).toBe('Authorization has no Bearer scheme: send Authorization: Bearer <API_KEY>');
    const unknown = await submit(body, 'sk-not-a-real-key').expect(401);
    expect(unknown.body).toEqual(wrapper('invalid api key', 'unauthorized'));
    const limited = await gw.createCustomer({ quota: 100_000, models: ['beta-1.0-i2v'] });
    const forbidden = await submit(body, limited.key).expect(403);
    expect(forbidden.body).toEqual(wrapper('api key is not allowed to use model beta-1.0-t2v', 'forbidden'));
    const poor = await gw.createCustomer({ quota: 10 });
    const broke = await submit(body, poor.key).expect(402);
    expect(broke.body).toEqual(wrapper('insufficient user quota', 'insufficient_quota'));
    expect(await gw.balance(poor.userId)).toEqual({ quota: 10, used_quota: 0 });
    expect(await gw.balance(limited.userId)).toEqual({ quota: 100_000, used_quota: 0 });
  });

  describe('upstream refusals revert the charge', () => {
    const refused = async (error: Parameters<BetaEmulatorServer['failNextSubmit']>[0], status: number, body: object) => {
      const before = await gw.balance(customer.userId);
      fake.failNextSubmit(error);
      const submitsBefore = fake.submits().length;
      const res = await submit({ model: 'beta-1.0-t2v', prompt: 'refused' }).expect(status);
      expect(res.body).toEqual(body);
      expect(fake.submits()).toHaveLength(submitsBefore + 1);
      expect(await gw.balance(customer.userId)).toEqual(before);
      return res;
    };

    it('400 InvalidParameter -> 400', async () => {
      await refused(
        { status: 400, code: 'InvalidParameter', message: 'The size is not supported.' },
        400,
        wrapper('upstream rejected the request: InvalidParameter: invalid parameter'),
      );
    });

    it('400 DataInspectionFailed -> 400 naming moderation', async () => {
      await refused(
        { status: 400, code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' },
        400,
        wrapper(
          'upstream rejected the request: content moderation failed: DataInspectionFailed: the input may contain inappropriate content',
        ),
      );
    });

    it('429 Throttling -> 429 with Retry-After', async () => {
      const res = await refused(
        { status: 429, code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded', headers: { 'retry-after': '7' } },
        429,
        wrapper('upstream concurrency limit reached, retry later', 'rate_limited'),
      );
      expect(res.headers['retry-after']).toBe('7');
    });

    it('401 InvalidApiKey, 400 Arrearage, 403 AccessDenied and 500 -> 503', async () => {
      const unavailable = wrapper('upstream channel unavailable, retry later', 'service_unavailable');
      await refused({ status: 401, code: 'InvalidApiKey', message: 'Invalid API-key provided.' }, 503, unavailable);
      await refused(
        { status: 400, code: 'Arrearage', message: 'Access denied, please make sure your account is in good standing.' },
        503,
        unavailable,
      );
      await refused({ status: 403, code: 'AccessDenied', message: 'Access denied.' }, 503, unavailable);
      await refused({ status: 500, code: 'InternalError', message: 'boom' }, 503, unavailable);
    });

    it('holds the charge and releases it (never a consume and a refund), and hides the refused task', async () => {
      for (const type of ['consume', 'refund'])
        expect((await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=${type}`).expect(200)).body.total).toBe(0);
      expect((await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=hold`).expect(200)).body.total).toBe(7);
      const logs = await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=release`).expect(200);
      expect(logs.body.total).toBe(7);
      expect(logs.body.data[0].detail).toMatch(/rejected at submit/);
      const taskId = logs.body.data[0].task_id;
      const res = await gw.http.get(`/v1/video/generations/${taskId}`).set('Authorization', `Bearer ${customer.key}`).expect(404);
      expect(res.body).toEqual(wrapper(`task ${taskId} not found`, 'not_found'));
    });
  });

  it("404 for an unknown task and for another account's task", async () => {
    const res = await submit({ model: 'beta-1.0-t2v', prompt: 'mine' }).expect(200);
    const other = await gw.createCustomer();
    const foreign = await gw.http.get(`/v1/video/generations/${res.body.id}`).set('Authorization', `Bearer ${other.key}`).expect(404);
    expect(foreign.body).toEqual(wrapper(`task ${res.body.id} not found`, 'not_found'));
    await gw.http.get('/v1/video/generations/task_doesnotexist').set('Authorization', `Bearer ${customer.key}`).expect(404);
  });
});

describeOnSqlite('generations: private media hosts', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    gw = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    customer = await gw.createCustomer({ quota: 100_000 });
  });
  afterAll(async () => gw?.close());

  it.each([
    ['loopback', 'http://127.0.0.1:8080/a.png'],
    ['private', 'http://10.1.2.3/a.png'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data'],
    ['localhost name', 'http://localhost/a.png'],
  ])('refuses a %s media URL before any charge', async (_name, url) => {
    const res = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: [{ type: 'reference_image', url }] } } })
      .expect(400);
    expect(res.body).toEqual(
      wrapper(
        'metadata.input.media[0].url must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)',
      ),
    );
    expect(await gw.balance(customer.userId)).toEqual({ quota: 100_000, used_quota: 0 });
  });
});
