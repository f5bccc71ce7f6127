import { alphaChannelBody, startAlphaEmulator, AlphaEmulatorServer } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const invalid = (message: string, param: string | null) => ({
  error: { message, type: 'invalid_request_error', param, code: 'invalid_request' },
});

describeOnSqlite('videos: validation and auth before any charge', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let customer: { userId: number; key: string; keyId: number };
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(fake));
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });
  afterEach(async () => {
    // Whatever was refused: nothing charged, nothing sent upstream, no task to see.
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(fake.requests).toHaveLength(0);
    const consumed = await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=consume`).expect(200);
    expect(consumed.body.total).toBe(0);
  });

  const submit = (body: object, key = customer.key) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(body);

  it.each([
    ['no model', { prompt: 'a cat' }, 'model is required', 'model'],
    ['an unknown version', { model: 'alpha/v7', prompt: 'a cat' }, 'unknown model: alpha/v7', 'model'],
    ['a case-changed family prefix', { model: 'Alpha/v6', prompt: 'a cat' }, 'unknown model: Alpha/v6', 'model'],
    ['an unknown family', { model: 'sora-9', prompt: 'a cat' }, 'unknown model: sora-9', 'model'],
    [
      'a family C model',
      { model: 'gamma-2-0', prompt: 'a cat' },
      'model gamma-2-0 is not served on /v1/videos; submit it on /v1/video/generations',
      'model',
    ],
    [
      'audio on v5',
      { model: 'alpha/v5', prompt: 'a cat', metadata: { generate_audio_switch: true } },
      'model v5 does not support audio generation',
      'metadata.generate_audio_switch',
    ],
    [
      'audio on v4.5',
      { model: 'alpha/v4.5', prompt: 'a cat', metadata: { generate_audio_switch: true } },
      'model v4.5 does not support audio generation',
      'metadata.generate_audio_switch',
    ],
    [
      'audio on v4',
      { model: 'alpha/v4', prompt: 'a cat', metadata: { generate_audio_switch: true } },
      'model v4 does not support audio generation',
      'metadata.generate_audio_switch',
    ],
    [
      'audio on v3.5',
      { model: 'alpha/V3.5', prompt: 'a cat', metadata: { generate_audio_switch: true } },
      'model v3.5 does not support audio generation',
      'metadata.generate_audio_switch',
    ],
    [
      'fast motion on v6',
      { model: 'alpha/v6', prompt: 'a cat', metadata: { motion_mode: 'fast' } },
      'model v6 does not support fast motion',
      'metadata.motion_mode',
    ],
    [
      'fast motion on v5',
      { model: 'alpha/v5', prompt: 'a cat', metadata: { motion_mode: 'fast' } },
      'model v5 does not support fast motion',
      'metadata.motion_mode',
    ],
    [
      'fast motion at 8 s',
      { model: 'alpha/v4.5', prompt: 'a cat', duration: 8, metadata: { motion_mode: 'fast' } },
      'fast motion only supports 360p/540p/720p at 5s',
      'metadata.motion_mode',
    ],
    [
      'fast motion at 1080p',
      { model: 'alpha/v4', prompt: 'a cat', resolution: '1080P', metadata: { motion_mode: 'fast' } },
      'fast motion only supports 360p/540p/720p at 5s',
      'metadata.motion_mode',
    ],
    [
      'a bad motion mode',
      { model: 'alpha/v4', prompt: 'a cat', metadata: { motion_mode: 'turbo' } },
      'metadata.motion_mode must be normal or fast',
      'metadata.motion_mode',
    ],
    ['10 s on v5', { model: 'alpha/v5', prompt: 'a cat', duration: 10 }, 'duration must be 5 or 8 seconds for alpha/v5', 'duration'],
    [
      '6 s on v5.6',
      { model: 'alpha/v5.6', prompt: 'a cat', duration: 6 },
      'duration must be 5, 8 or 10 seconds for alpha/v5.6',
      'duration',
    ],
    [
      '16 s on v6',
      { model: 'alpha/v6', prompt: 'a cat', duration: 16 },
      'duration must be a whole number of seconds from 1 to 15 for alpha/v6',
      'duration',
    ],
    [
      '0 s on c1 via seconds',
      { model: 'alpha/c1', prompt: 'a cat', seconds: '0' },
      'seconds must be a whole number of seconds, 1 or more',
      'seconds',
    ],
    [
      'a fractional duration',
      { model: 'alpha/v6', prompt: 'a cat', duration: 5.5 },
      'duration must be a whole number of seconds',
      'duration',
    ],
    [
      'v5.6 at 1080p 10 s',
      { model: 'alpha/v5.6', prompt: 'a cat', duration: 10, resolution: '1080P' },
      'combination 1080p / 10 not supported',
      'duration',
    ],
    [
      'v5.5 at 1080p 10 s (metadata.quality)',
      { model: 'alpha/v5.5', prompt: 'a cat', duration: 10, size: '720p', metadata: { quality: '1080p' } },
      'combination 1080p / 10 not supported',
      'duration',
    ],
    [
      'v3.5 at 1080p 8 s',
      { model: 'alpha/v3.5', prompt: 'a cat', duration: 8, size: '1920x1080' },
      'combination 1080p / 8 not supported',
      'duration',
    ],
    ['a prompt over 2048 characters', { model: 'alpha/v6', prompt: 'x'.repeat(2049) }, 'prompt must be at most 2048 characters', 'prompt'],
    ['no prompt for text-to-video', { model: 'alpha/v6' }, 'prompt is required', 'prompt'],
    [
      'a negative seed',
      { model: 'alpha/v6', prompt: 'a cat', metadata: { seed: -1 } },
      'metadata.seed must be between 0 and 2147483647',
      'metadata.seed',
    ],
    [
      'a seed over 2147483647',
      { model: 'alpha/v6', prompt: 'a cat', metadata: { seed: 2147483648 } },
      'metadata.seed must be between 0 and 2147483647',
      'metadata.seed',
    ],
    [
      'an unknown aspect ratio',
      { model: 'alpha/v6', prompt: 'a cat', metadata: { aspect_ratio: '5:4' } },
      'metadata.aspect_ratio must be one of 16:9, 9:16, 1:1, 4:3, 3:4, 2:3, 3:2, 21:9',
      'metadata.aspect_ratio',
    ],
    [
      '21:9 on v5',
      { model: 'alpha/v5', prompt: 'a cat', metadata: { aspect_ratio: '21:9' } },
      'model v5 does not support aspect_ratio 21:9 (allowed: 16:9, 4:3, 1:1, 3:4, 9:16)',
      'metadata.aspect_ratio',
    ],
    [
      'a bad resolution',
      { model: 'alpha/v6', prompt: 'a cat', resolution: '4K' },
      'resolution must be 720P or 1080P (or 360P, 540P)',
      'resolution',
    ],
    [
      'a bad size',
      { model: 'alpha/v6', prompt: 'a cat', size: 'huge' },
      'size must be 360p, 540p, 720p, 1080p or <width>x<height>',
      'size',
    ],
    [
      'a bad quality',
      { model: 'alpha/v6', prompt: 'a cat', metadata: { quality: '2k' } },
      'metadata.quality must be one of 360p, 540p, 720p, 1080p',
      'metadata.quality',
    ],
    [
      'image and images together',
      { model: 'alpha/v6', prompt: 'a cat', image: 'https://example.com/a.png', images: ['https://example.com/b.png'] },
      'send the image once: image and images were both given',
      'images',
    ],
    [
      'two images',
      { model: 'alpha/v6', prompt: 'a cat', images: ['https://example.com/a.png', 'https://example.com/b.png'] },
      'images takes one image for alpha models',
      'images',
    ],
    ['an image that is not a URL', { model: 'alpha/v6', prompt: 'a cat', image: 'not a url' }, 'image must be an http(s) URL', 'image'],
    [
      'a data URI that is not base64',
      { model: 'alpha/v6', prompt: 'a cat', image: 'data:image/png,hello' },
      'image must be an http(s) URL or a base64 data URI (data:image/png;base64,...)',
      'image',
    ],
    [
      'a data URI that is not an image',
      { model: 'alpha/v6', prompt: 'a cat', image: `data:image/png;base64,${Buffer.from('plain text').toString('base64')}` },
      'image must be a PNG, JPEG or WEBP image',
      'image',
    ],
    [
      'an OpenAI file_id reference',
      { model: 'alpha/v6', prompt: 'a cat', input_reference: { file_id: 'file-123' } },
      'input_reference must be an image file, an image URL, a data URI or {"image_url": ...}',
      'input_reference',
    ],
    ['metadata that is not an object', { model: 'alpha/v6', prompt: 'a cat', metadata: 'fast' }, 'metadata must be an object', 'metadata'],
  ])('refuses %s with 400', async (_name, body, message, param) => {
    const res = await submit(body).expect(400);
    expect(res.body).toEqual(invalid(message, param));
  });

  it('refuses an over-long or empty Idempotency-Key (the same rule as on /v1/video/generations)', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await submit({ model: 'alpha/v6', prompt: 'a cat' }).set('Idempotency-Key', key).expect(400);
      expect(res.body).toEqual(invalid('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key'));
    }
  });

  it('refuses an image URL on a private address unless MEDIA_ALLOW_PRIVATE_HOSTS=true', async () => {
    const strict = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    try {
      const user = await strict.createCustomer({ quota: QUOTA });
      for (const url of [
        'http://127.0.0.1:9/cat.png',
        'http://10.0.0.8/cat.png',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/cat.png',
      ]) {
        const res = await strict.http
          .post('/v1/videos')
          .set('Authorization', `Bearer ${user.key}`)
          .send({ model: 'alpha/v6', prompt: 'a cat', image: url })
          .expect(400);
        expect(res.body).toEqual(
          invalid(
            'image must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)',
            'image',
          ),
        );
      }
      expect(await strict.balance(user.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    } finally {
      await strict.close();
    }
  });

  describe('auth statuses', () => {
    const body = { model: 'alpha/v6', prompt: 'a cat' };

    it('401 without a key, with an unknown key, a revoked key and a disabled account', async () => {
      const missing = await gw.http.post('/v1/videos').send(body).expect(401);
      expect(missing.body).toEqual({
        error: {
          message: 'missing api key: send Authorization: Bearer <API_KEY>',
          type: 'authentication_error',
          param: null,
          code: 'unauthorized',
        },
      });
      const unknown = await submit(body, 'sk-thisKeyDoesNotExist0000000000000000000000').expect(401);
      expect(unknown.body).toEqual({
        error: { message: 'invalid api key', type: 'authentication_error', param: null, code: 'unauthorized' },
      });

      const revoked = await gw.createCustomer({ quota: QUOTA });
      await gw.admin.delete(`/api/admin/keys/${revoked.keyId}`).expect(200);
      const revokedRes = await submit(body, revoked.key).expect(401);
      expect(revokedRes.body).toEqual({
        error: { message: 'api key has been revoked', type: 'authentication_error', param: null, code: 'unauthorized' },
      });

      const disabled = await gw.createCustomer({ quota: QUOTA });
      await submit({ model: 'alpha/v9', prompt: 'warms the key cache' }, disabled.key).expect(400);
      await gw.admin.patch(`/api/admin/users/${disabled.userId}`, { status: 'disabled' }).expect(200);
      const disabledRes = await submit(body, disabled.key).expect(401);
      expect(disabledRes.body).toEqual({
        error: { message: 'account is disabled', type: 'authentication_error', param: null, code: 'unauthorized' },
      });
      for (const user of [revoked, disabled]) expect(await gw.balance(user.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    });

    it('403 for a model outside the key allowlist', async () => {
      const limited = await gw.createCustomer({ quota: QUOTA, models: ['alpha/v5'] });
      const res = await submit(body, limited.key).expect(403);
      expect(res.body).toEqual({
        error: { message: 'api key is not allowed to use model alpha/v6', type: 'permission_error', param: 'model', code: 'forbidden' },
      });
      expect(await gw.balance(limited.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    });

    it('402 insufficient user quota when the balance cannot pay', async () => {
      const poor = await gw.createCustomer({ quota: 4499 }); // v6 720p 5 s costs 4500
      const res = await submit(body, poor.key).expect(402);
      expect(res.body).toEqual({
        error: { message: 'insufficient user quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
      });
      expect(await gw.balance(poor.userId)).toEqual({ quota: 4499, used_quota: 0 });
      const list = await gw.http.get('/v1/videos').set('Authorization', `Bearer ${poor.key}`).expect(200);
      expect(list.body.data).toEqual([]);
    });
  });
});
