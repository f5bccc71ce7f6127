import request from 'supertest';
import { ALPHA_MODEL_IDS, alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { verifiedCustomer } from './support/verification-customers';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

const NUL = 'a\u0000b';
const UNPAIRED = 'a\uD83Eb'; // the first half of an emoji alone
/** An id with a NUL in it, as it appears in a URL. */
const ID = 'a%00b';

const HAS_NUL = 'must not contain a NUL character (U+0000)';
const HAS_UNPAIRED = 'must not contain an unpaired UTF-16 surrogate';
const NO_SUCH_ID = 'not found: no id contains a NUL character (U+0000)';

/** OpenAI's error shape (/v1/videos, the admin API, the console API). */
const flat = (code: string, message: string, param: string | null) => ({
  error: { message, type: 'invalid_request_error', param, code },
});
const invalid = (field: string, problem = HAS_NUL) => flat('invalid_request', `${field} ${problem}`, field);
/** The unified wrapper (/v1/video/generations). */
const wrapper = (code: string, message: string) => ({ code, message, data: null });

/**
 * Text no database of the gateway can store as sent (PostgreSQL refuses a NUL; an unpaired surrogate
 * would be stored as U+FFFD) is refused where it enters: a 400 naming the field in a body or query, a 404
 * for an id in a path (no id has one); never a 500, and nothing charged.
 */
describeEachDatabase('faults: text the database cannot store', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let gamma: GammaEmulatorServer;
  let customer: { userId: number; key: string; groupId: string };
  let console_: { cookie: string; csrf: string };
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    [alpha, beta, gamma] = await Promise.all([startAlphaEmulator(), startBetaEmulator(), startGammaEmulator()]);
    gw = await startGateway(kind);
    gamma.now = () => gw.clock.now();
    await gw.createChannel(alphaChannelBody(alpha, { models: ALPHA_MODEL_IDS }));
    await gw.createChannel(betaChannelBody(beta));
    await gw.createChannel(gamma.channelBody());
    // Verified, so that the verification routes reach their lookups.
    customer = await verifiedCustomer(gw, gamma, { quota: QUOTA });
    const { username } = (await gw.admin.patch(`/api/admin/users/${customer.userId}`, { password: 'pass-word-1' }).expect(200)).body;
    const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
    console_ = { cookie: String(session.headers['set-cookie'][0]).split(';')[0], csrf: session.body.csrf_token };
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
  });

  const upstreamCalls = () => alpha.requests.length + beta.requests.length + gamma.requests.length;
  const ledgerTotal = async (type: string) =>
    (await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=${type}`).expect(200)).body.total as number;

  /** Sends, then checks the exact answer and that nothing moved: balance, ledger, upstream. */
  async function refusedWithoutCharge(send: () => request.Test, status: number, body: object): Promise<void> {
    const balance = await gw.balance(customer.userId);
    const calls = upstreamCalls();
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
    expect(await gw.balance(customer.userId)).toEqual(balance);
    expect(await ledgerTotal('consume')).toBe(0);
    expect(upstreamCalls()).toBe(calls);
  }

  const withKey = (test: request.Test) => test.set('Authorization', `Bearer ${customer.key}`);
  const json = (test: request.Test, body: unknown) => test.set('Content-Type', 'application/json').send(JSON.stringify(body));

  describe('submits: a 400 naming the field, nothing charged', () => {
    it.each<[string, Record<string, unknown>, string, string]>([
      ['a NUL in prompt (the probe)', { model: 'alpha/v6', prompt: NUL, duration: 5 }, 'prompt', HAS_NUL],
      ['a NUL in model', { model: `alpha/v6${NUL}`, prompt: 'a cat' }, 'model', HAS_NUL],
      [
        'a NUL in metadata.negative_prompt',
        { model: 'alpha/v6', prompt: 'a cat', metadata: { negative_prompt: NUL } },
        'metadata.negative_prompt',
        HAS_NUL,
      ],
      [
        'a NUL in an array element',
        { model: 'alpha/v6', prompt: 'a cat', images: ['https://cdn.example/a.png', NUL] },
        'images[1]',
        HAS_NUL,
      ],
      ['an unpaired surrogate in prompt', { model: 'alpha/v6', prompt: UNPAIRED }, 'prompt', HAS_UNPAIRED],
    ])('POST /v1/videos: %s', async (_name, body, field, problem) => {
      await refusedWithoutCharge(() => json(withKey(gw.http.post('/v1/videos')), body), 400, invalid(field, problem));
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['a NUL in prompt', { model: 'beta-1.0-t2v', prompt: NUL, duration: 5 }, 'prompt', HAS_NUL],
      ['a NUL in metadata.ratio', { model: 'beta-1.0-t2v', prompt: 'a cat', metadata: { ratio: NUL } }, 'metadata.ratio', HAS_NUL],
      ['an unpaired surrogate in prompt', { model: 'gamma-2-0', prompt: UNPAIRED }, 'prompt', HAS_UNPAIRED],
    ])('POST /v1/video/generations: %s, in the wrapper shape', async (_name, body, field, problem) => {
      await refusedWithoutCharge(
        () => json(withKey(gw.http.post('/v1/video/generations')), body),
        400,
        wrapper('invalid_request', `${field} ${problem}`),
      );
    });

    it('a multipart submit: a NUL in a text field, or in the metadata JSON', async () => {
      const multipart = () => withKey(gw.http.post('/v1/videos')).field('model', 'alpha/v6');
      await refusedWithoutCharge(() => multipart().field('prompt', NUL), 400, invalid('prompt'));
      await refusedWithoutCharge(
        () =>
          multipart()
            .field('prompt', 'a cat')
            .field('metadata', JSON.stringify({ negative_prompt: NUL })),
        400,
        invalid('metadata.negative_prompt'),
      );
    });

    it('a NUL in a field name is refused too', async () => {
      await refusedWithoutCharge(
        () => json(withKey(gw.http.post('/v1/videos')), { model: 'alpha/v6', prompt: 'a cat', metadata: { [NUL]: 1 } }),
        400,
        flat('invalid_request', `field names ${HAS_NUL}`, 'metadata'),
      );
    });

    it('the same text without the NUL is taken and charged once', async () => {
      const other = await gw.createCustomer({ quota: QUOTA });
      const res = await json(gw.http.post('/v1/videos').set('Authorization', `Bearer ${other.key}`), { model: 'alpha/v6', prompt: 'ab' });
      expect(res.status).toBe(200);
      expect(await gw.balance(other.userId)).toEqual({ quota: QUOTA - 4500, used_quota: 4500 });
    });
  });

  describe('other bodies: a 400 naming the field', () => {
    it('webhooks, verification assets, the admin API', async () => {
      for (const [send, field] of [
        [() => json(withKey(gw.http.post('/v1/webhooks')), { url: `https://hooks.example/${NUL}` }), 'url'],
        [
          () =>
            json(withKey(gw.http.post(`/v1/verification/groups/${customer.groupId}/assets`)), {
              url: 'https://cdn.example/a.jpg',
              name: NUL,
            }),
          'name',
        ],
        [() => gw.admin.post('/api/admin/users', { username: NUL }), 'username'],
        [() => gw.admin.patch(`/api/admin/users/${customer.userId}`, { group: NUL }), 'group'],
      ] as const) {
        const res = await send();
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
      }
    });
  });

  describe('ids in paths: a NUL is in no id, so a 404', () => {
    const notFound = flat('not_found', NO_SUCH_ID, null);
    const asCustomer = (method: 'get' | 'post' | 'delete', path: string) => withKey(gw.http[method](path));
    const asAdmin = (method: 'get' | 'post' | 'delete', path: string) => gw.admin[method](path);
    const inConsole = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
      gw.http[method](path).set('Cookie', console_.cookie).set('X-CSRF-Token', console_.csrf);

    it.each<[string, () => request.Test]>([
      ['GET /v1/videos/:id', () => asCustomer('get', `/v1/videos/${ID}`)],
      ['GET /v1/videos/:id/content', () => asCustomer('get', `/v1/videos/${ID}/content`)],
      ['POST /v1/videos/:id/cancel', () => asCustomer('post', `/v1/videos/${ID}/cancel`)],
      ['DELETE /v1/videos/:id', () => asCustomer('delete', `/v1/videos/${ID}`)],
      ['DELETE /v1/webhooks/:id', () => asCustomer('delete', `/v1/webhooks/${ID}`)],
      ['GET /v1/webhooks/:id/deliveries', () => asCustomer('get', `/v1/webhooks/${ID}/deliveries`)],
      ['POST /v1/webhooks/:id/test', () => asCustomer('post', `/v1/webhooks/${ID}/test`)],
      ['GET /v1/verification/sessions/:id', () => asCustomer('get', `/v1/verification/sessions/${ID}`)],
      ['GET /v1/verification/groups/:id/assets', () => asCustomer('get', `/v1/verification/groups/${ID}/assets`)],
      ['GET /v1/verification/assets/:id', () => asCustomer('get', `/v1/verification/assets/${ID}`)],
      ['DELETE /v1/verification/assets/:id', () => asCustomer('delete', `/v1/verification/assets/${ID}`)],
      ['GET /api/admin/tasks/:id', () => asAdmin('get', `/api/admin/tasks/${ID}`)],
      ['POST /api/admin/tasks/:id/cancel', () => asAdmin('post', `/api/admin/tasks/${ID}/cancel`)],
      ['POST /api/admin/tasks/:id/archive', () => asAdmin('post', `/api/admin/tasks/${ID}/archive`)],
      ['GET /api/admin/tasks/:id/content', () => asAdmin('get', `/api/admin/tasks/${ID}/content`)],
      ['GET /api/admin/tasks/:id/thumbnail', () => asAdmin('get', `/api/admin/tasks/${ID}/thumbnail`)],
      ['GET /api/admin/users/:id', () => asAdmin('get', `/api/admin/users/${ID}`)],
      ['GET /console/api/tasks/:id', () => inConsole('get', `/console/api/tasks/${ID}`)],
      ['POST /console/api/tasks/:id/cancel', () => inConsole('post', `/console/api/tasks/${ID}/cancel`)],
      ['GET /console/api/tasks/:id/content', () => inConsole('get', `/console/api/tasks/${ID}/content`)],
      ['GET /console/api/tasks/:id/thumbnail', () => inConsole('get', `/console/api/tasks/${ID}/thumbnail`)],
      ['DELETE /console/api/webhooks/:id', () => inConsole('delete', `/console/api/webhooks/${ID}`)],
      [
        'POST /console/api/webhooks/:id/deliveries/:id/resend',
        () => inConsole('post', `/console/api/webhooks/${ID}/deliveries/${ID}/resend`),
      ],
      ['POST /console/api/webhooks/:id/enable', () => inConsole('post', `/console/api/webhooks/${ID}/enable`)],
      ['GET /console/api/verification/sessions/:id', () => inConsole('get', `/console/api/verification/sessions/${ID}`)],
      ['GET /console/api/verification/groups/:id/assets', () => inConsole('get', `/console/api/verification/groups/${ID}/assets`)],
      ['DELETE /console/api/verification/assets/:id', () => inConsole('delete', `/console/api/verification/assets/${ID}`)],
      ['PATCH /console/api/keys/:id', () => inConsole('patch', `/console/api/keys/${ID}`).send({ name: 'x' })],
      ['GET /media/portraits/:id', () => gw.http.get(`/media/portraits/${ID}`)],
    ])('%s', async (_name, send) => {
      const res = await send();
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: notFound });
    });

    it('the unified surface answers in its wrapper', async () => {
      for (const send of [
        () => withKey(gw.http.get(`/v1/video/generations/${ID}`)),
        () => withKey(gw.http.post(`/v1/video/generations/${ID}/cancel`)),
      ]) {
        const res = await send();
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: wrapper('not_found', NO_SUCH_ID) });
      }
    });

    it('nothing was charged or cancelled along the way', async () => {
      expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
      expect(await ledgerTotal('refund')).toBe(0);
    });
  });

  describe('query filters: a 400 naming the parameter', () => {
    it.each<[string, () => request.Test, string]>([
      ['GET /v1/videos?after', () => withKey(gw.http.get(`/v1/videos?after=${ID}`)), 'after'],
      [
        'GET /v1/webhooks/callback-deliveries?task_id',
        () => withKey(gw.http.get(`/v1/webhooks/callback-deliveries?task_id=${ID}`)),
        'task_id',
      ],
      ['GET /api/admin/logs?task_id', () => gw.admin.get(`/api/admin/logs?task_id=${ID}`), 'task_id'],
      ['GET /api/admin/tasks?q', () => gw.admin.get(`/api/admin/tasks?q=${ID}`), 'q'],
      ['GET /console/api/tasks?q', () => gw.http.get(`/console/api/tasks?q=${ID}`).set('Cookie', console_.cookie), 'q'],
      ['GET /console/api/logs?task_id', () => gw.http.get(`/console/api/logs?task_id=${ID}`).set('Cookie', console_.cookie), 'task_id'],
    ])('%s', async (_name, send, field) => {
      const res = await send();
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
    });
  });

  describe('GET /v1/callback (the provider sends the browser here)', () => {
    it('a token with a NUL is an unknown session: its 404 page, not a 503', async () => {
      const res = await gw.http.get('/v1/callback?bytedToken=%00&resultCode=10000');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Unknown verification session');
    });

    it('a reported value with a NUL is a 400 page; nothing is recorded, so the real callback still goes through', async () => {
      const session = await withKey(gw.http.post('/v1/verification/sessions')).send({ callback_url: 'https://biz.example/cb' }).expect(201);
      const token = encodeURIComponent(session.body.provider_token);
      const refused = await gw.http.get(`/v1/callback?bytedToken=${token}&resultCode=1%000`);
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('Invalid verification link');
      const delivered = await gw.http.get(`/v1/callback?bytedToken=${token}&resultCode=10000`).expect(302);
      expect(delivered.headers.location).toMatch(/^https:\/\/biz\.example\/cb\?providerToken=.*&resultCode=10000/);
    });
  });

  describe('POST /console/api/session takes any JSON: a 400 naming the field, never a 500', () => {
    it.each<[string, Record<string, unknown>, string]>([
      ['both null', { username: null, password: null }, 'username must be a string'],
      ['a null password', { username: 'someone', password: null }, 'password must be a string'],
      ['a number', { username: 42, password: 'pass-word-1' }, 'username must be a string'],
      ['an object', { username: { name: 'x' }, password: 'pass-word-1' }, 'username must be a string'],
      ['an array', { username: ['x'], password: ['y'] }, 'username must be a string'],
      ['a null admin token', { admin_token: null }, 'admin_token must be a string'],
    ])('%s', async (_name, body, message) => {
      const res = await gw.http.post('/console/api/session').send(body);
      // The console's 400 names every bad field (the first as param) and the rule each broke.
      const first = flat('invalid_request', message, message.split(' ')[0]).error;
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: {
          ...first,
          message: expect.stringMatching(new RegExp(`^${message}`)),
          constraint: 'isString',
          ...(res.body.error.fields ? { fields: expect.any(Array) } : {}),
        },
      });
    });

    it('a NUL in the username or password', async () => {
      for (const [body, field] of [
        [{ username: NUL, password: 'pass-word-1' }, 'username'],
        [{ username: 'someone', password: NUL }, 'password'],
      ] as const) {
        const res = await gw.http.post('/console/api/session').send(body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(field) });
      }
    });
  });
});
