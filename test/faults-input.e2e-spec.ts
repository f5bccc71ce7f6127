import { addOpenAiModels } from './support/catalog-models';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ChannelsService } from '../src/upstream/channels.service';
import { ALPHA_MODEL_IDS, alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { verifiedCustomer } from './support/verification-customers';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { describeEachDatabase, describeOnSqlite } from './support/test-databases';

/** OpenAI's error shape (/v1/videos, the admin API). */
const invalid = (message: string, param: string | null) => ({
  error: { message, type: 'invalid_request_error', param, code: 'invalid_request' },
});
/** The admin API's and the console's 400: the same, with the rule the field broke (which the console words in its language). */
const operatorInvalid = (message: string, param: string, constraint: string) => ({
  error: { ...invalid(message, param).error, constraint },
});
/** The unified wrapper (/v1/video/generations). */
const wrapper = (message: string) => ({ code: 'invalid_request', message, data: null });

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const EMOJI = '\u{1F98A}'; // one code point, two UTF-16 code units

/**
 * "Faults lose nothing", input side: whatever the gateway itself can refuse is a 400 naming the
 * field, before any price, charge, ledger row or upstream call; never a 500.
 */
describeEachDatabase('faults: bad input is refused before any charge', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  let gamma: GammaEmulatorServer;
  let customer: { userId: number; key: string; keyId: number };
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    [alpha, beta, gamma] = await Promise.all([startAlphaEmulator(), startBetaEmulator(), startGammaEmulator()]);
    gw = await startGateway(kind);
    gamma.now = () => gw.clock.now();
    // alpha/v3.5 is left to the group-restricted channel of the routing test.
    await gw.createChannel(alphaChannelBody(alpha, { models: ALPHA_MODEL_IDS.filter((model) => model !== 'alpha/v3.5') }));
    await gw.createChannel(betaChannelBody(beta));
    await gw.createChannel(gamma.channelBody());
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
  });

  const upstreamCalls = () => alpha.requests.length + beta.requests.length + gamma.requests.length;
  const ledgerTotal = async (userId: number, type: string) =>
    (await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=${type}`).expect(200)).body.total as number;

  /** Sends, then checks the exact 400 and that nothing moved: balance, ledger, upstream. */
  async function refusedWithoutCharge(userId: number, send: () => request.Test, body: object): Promise<void> {
    const balance = await gw.balance(userId);
    const calls = upstreamCalls();
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body });
    expect(await gw.balance(userId)).toEqual(balance);
    expect(await ledgerTotal(userId, 'consume')).toBe(0);
    expect(await ledgerTotal(userId, 'refund')).toBe(0);
    expect(upstreamCalls()).toBe(calls);
  }

  const videos = (body: unknown, key = customer.key) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
  const generations = (body: unknown, key = customer.key) =>
    gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));

  describe('POST /v1/videos: every typed field is checked by type before pricing', () => {
    it.each<[string, unknown, string, string]>([
      ['image: null', { model: 'alpha/v6', prompt: 'a cat', image: null }, 'image must be a string', 'image'],
      ['images: null', { model: 'alpha/v6', prompt: 'a cat', images: null }, 'images must be an array', 'images'],
      ['images: [null]', { model: 'alpha/v6', prompt: 'a cat', images: [null] }, 'each value in images must be a string', 'images'],
      ['prompt: null', { model: 'alpha/v6', prompt: null }, 'prompt must be a string', 'prompt'],
      ['metadata: null', { model: 'alpha/v6', prompt: 'a cat', metadata: null }, 'metadata must be an object', 'metadata'],
      ['size: ["720P"] (alpha)', { model: 'alpha/v6', prompt: 'a cat', size: ['720P'] }, 'size must be a string', 'size'],
      ['size: ["720P"] (beta)', { model: 'beta-1.0-t2v', prompt: 'a cat', size: ['720P'] }, 'size must be a string', 'size'],
      ['size: ["1280x720"] (beta)', { model: 'beta-1.0-t2v', prompt: 'a cat', size: ['1280x720'] }, 'size must be a string', 'size'],
      ['model: ["alpha/v6"]', { model: ['alpha/v6'], prompt: 'a cat' }, 'model must be a string', 'model'],
      ['model: ["beta-1.0-t2v"]', { model: ['beta-1.0-t2v'], prompt: 'a cat' }, 'model must be a string', 'model'],
      ['model: ["gamma-2-0"]', { model: ['gamma-2-0'], prompt: 'a cat' }, 'model must be a string', 'model'],
      ['resolution: ["720P"]', { model: 'alpha/v6', prompt: 'a cat', resolution: ['720P'] }, 'resolution must be a string', 'resolution'],
      [
        'seconds: ["5"]',
        { model: 'alpha/v6', prompt: 'a cat', seconds: ['5'] },
        'seconds must be a whole number of seconds, 1 or more',
        'seconds',
      ],
      [
        'metadata.ratio: ["16:9"] (beta)',
        { model: 'beta-1.0-t2v', prompt: 'a cat', metadata: { ratio: ['16:9'] } },
        'metadata.ratio must be a string',
        'metadata.ratio',
      ],
      [
        'metadata.img_id: 1e20',
        { model: 'alpha/v6', prompt: 'a cat', metadata: { img_id: 1e20 } },
        'metadata.img_id must be an integer between 0 and 2147483647',
        'metadata.img_id',
      ],
      [
        'metadata.img_id: 2^31',
        { model: 'alpha/v6', prompt: 'a cat', metadata: { img_id: 2147483648 } },
        'metadata.img_id must be an integer between 0 and 2147483647',
        'metadata.img_id',
      ],
      [
        'metadata.template_id: 1e20',
        { model: 'alpha/v6', prompt: 'a cat', metadata: { template_id: 1e20 } },
        'metadata.template_id must be an integer between 0 and 2147483647',
        'metadata.template_id',
      ],
      [
        'a 1,025-emoji prompt (2,050 UTF-16 code units, as the provider counts)',
        { model: 'alpha/v6', prompt: EMOJI.repeat(1025) },
        'prompt must be at most 2048 characters (the provider counts an emoji or other character outside the Basic Multilingual Plane as 2; this prompt counts 2050)',
        'prompt',
      ],
      [
        'a 1,025-emoji negative prompt',
        { model: 'alpha/v6', prompt: 'a cat', metadata: { negative_prompt: EMOJI.repeat(1025) } },
        'metadata.negative_prompt must be at most 2048 characters (the provider counts an emoji or other character outside the Basic Multilingual Plane as 2; this prompt counts 2050)',
        'metadata.negative_prompt',
      ],
    ])('400 naming the field, nothing charged: %s', async (_name, body, message, param) => {
      await refusedWithoutCharge(customer.userId, () => videos(body), invalid(message, param));
    });

    it('400 for a multipart img_id beyond the protocol int, nothing charged', async () => {
      await refusedWithoutCharge(
        customer.userId,
        () =>
          gw.http
            .post('/v1/videos')
            .set('Authorization', `Bearer ${customer.key}`)
            .field('model', 'alpha/v6')
            .field('prompt', 'a cat')
            .field('metadata', JSON.stringify({ img_id: '100000000000000000000' })),
        invalid('metadata.img_id must be an integer between 0 and 2147483647', 'metadata.img_id'),
      );
    });

    it('still accepts a prompt of exactly 2048 UTF-16 code units (1,024 emoji) and charges it once', async () => {
      const other = await gw.createCustomer({ quota: QUOTA });
      const calls = alpha.calls('generate').length;
      const res = await videos({ model: 'alpha/v6', prompt: EMOJI.repeat(1024) }, other.key).expect(200);
      expect(res.body).toMatchObject({ object: 'video', status: 'queued' });
      expect(alpha.calls('generate')).toHaveLength(calls + 1);
      expect(await gw.balance(other.userId)).toEqual({ quota: QUOTA - 4500, used_quota: 4500 });
      expect(await ledgerTotal(other.userId, 'refund')).toBe(0);
    });
  });

  describe('POST /v1/video/generations: the same type rule, in the wrapper shape', () => {
    it.each<[string, unknown, string]>([
      ['size: ["720P"]', { model: 'beta-1.0-t2v', prompt: 'a cat', size: ['720P'] }, 'size must be a string'],
      ['model: ["gamma-2-0"]', { model: ['gamma-2-0'], prompt: 'a cat' }, 'model must be a string'],
      ['model: ["beta-1.0-t2v"]', { model: ['beta-1.0-t2v'], prompt: 'a cat' }, 'model must be a string'],
      ['model: {}', { model: {}, prompt: 'a cat' }, 'model must be a string'],
      [
        'metadata.resolution: ["720p"] (gamma)',
        { model: 'gamma-2-0', prompt: 'a cat', metadata: { resolution: ['720p'] } },
        'metadata.resolution must be a string',
      ],
      [
        'metadata.resolution: ["720p"] (gamma fast)',
        { model: 'gamma-2-0-fast', prompt: 'a cat', metadata: { resolution: ['720p'] } },
        'metadata.resolution must be a string',
      ],
      [
        'metadata.ratio: ["16:9"] (beta)',
        { model: 'beta-1.0-t2v', prompt: 'a cat', metadata: { ratio: ['16:9'] } },
        'metadata.ratio must be a string',
      ],
      ['duration: [5] (beta)', { model: 'beta-1.0-t2v', prompt: 'a cat', duration: [5] }, 'duration must be an integer'],
      ['duration: ["5"] (gamma)', { model: 'gamma-2-0', prompt: 'a cat', duration: ['5'] }, 'duration must be an integer'],
      ['metadata.seed: [1] (gamma)', { model: 'gamma-2-0', prompt: 'a cat', metadata: { seed: [1] } }, 'metadata.seed must be an integer'],
      [
        'input_reference: null (beta i2v)',
        { model: 'beta-1.0-i2v', prompt: 'a cat', input_reference: null },
        'input_reference must be a string',
      ],
      [
        'metadata.input: [] (beta r2v)',
        { model: 'beta-1.0-r2v', prompt: 'a cat', metadata: { input: [] } },
        'metadata.input must be an object',
      ],
    ])('400 naming the field, nothing charged: %s', async (_name, body, message) => {
      await refusedWithoutCharge(customer.userId, () => generations(body), wrapper(message));
    });
  });

  describe('names every object has (__proto__, constructor...) are unknown models, never a table entry', () => {
    it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__PROTO__'])(
      '400 unknown model on both surfaces, nothing charged: %s',
      async (model) => {
        await refusedWithoutCharge(customer.userId, () => videos({ model, prompt: 'a cat' }), invalid(`unknown model: ${model}`, 'model'));
        await refusedWithoutCharge(customer.userId, () => generations({ model, prompt: 'a cat' }), wrapper(`unknown model: ${model}`));
      },
    );

    it('a console vendor file named like an inherited property is a 404, not a 500', async () => {
      for (const name of ['constructor', '__proto__', 'toString']) await gw.http.get(`/console/vendor/${name}`).expect(404);
    });
  });

  describe('verification asset upload', () => {
    it('400 naming url for a malformed percent-escape, before any provider call', async () => {
      const verified = await verifiedCustomer(gw, gamma);
      const message = 'url has a malformed percent-escape: % must be followed by two hexadecimal digits';
      for (const body of [{ url: 'https://cdn.example/%zz' }, { url: 'https://cdn.example/face%2.jpg', name: 'front' }]) {
        const controlCalls = gamma.controlCalls.length;
        const res = await gw.http
          .post(`/v1/verification/groups/${verified.groupId}/assets`)
          .set('Authorization', `Bearer ${verified.key}`)
          .send(body);
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: invalid(message, 'url') });
        expect(gamma.controlCalls.length).toBe(controlCalls);
      }
      const list = await gw.http
        .get(`/v1/verification/groups/${verified.groupId}/assets`)
        .set('Authorization', `Bearer ${verified.key}`)
        .expect(200);
      expect(list.body.data).toEqual([]);
    });
  });

  describe('API keys: models must be an array of strings', () => {
    it('admin API: 400 for models as a string, and no key is issued', async () => {
      const user = await gw.createCustomer({ quota: QUOTA });
      const keysBefore = (await gw.admin.get(`/api/admin/users/${user.userId}/keys`).expect(200)).body.data.length;
      for (const models of ['alpha/v6', { 0: 'alpha/v6' }, [1]]) {
        const res = await gw.admin.post(`/api/admin/users/${user.userId}/keys`, { name: 'ci', models });
        const message = Array.isArray(models) ? 'each value in models must be a string' : 'models must be an array';
        const constraint = Array.isArray(models) ? 'isString' : 'isArray';
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: operatorInvalid(message, 'models', constraint) });
      }
      expect((await gw.admin.get(`/api/admin/users/${user.userId}/keys`).expect(200)).body.data.length).toBe(keysBefore);
    });

    it('console: 400 for models as a string, and no key is issued', async () => {
      const username = `keys_${kind}`;
      await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1' }).expect(201);
      const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
      const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
      const res = await gw.http
        .post('/console/api/keys')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', session.body.csrf_token)
        .send({ name: 'ci', models: 'alpha/v6' });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: operatorInvalid('models must be an array', 'models', 'isArray'),
      });
      expect((await gw.http.get('/console/api/keys').set('Cookie', cookie).expect(200)).body.data).toEqual([]);
    });
  });

  describe('channel groups: an array of strings, matched exactly', () => {
    const restricted = () => alphaChannelBody(alpha, { name: `vip-${kind}`, models: ['alpha/v3.5'] });

    it('refuses groups as a string on create and on edit', async () => {
      const before = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.length;
      const created = await gw.admin.post('/api/admin/channels', { ...restricted(), groups: 'vip-customers' });
      expect({ status: created.status, body: created.body }).toEqual({
        status: 400,
        body: operatorInvalid('groups must be an array', 'groups', 'isArray'),
      });
      expect((await gw.admin.get('/api/admin/channels').expect(200)).body.data.length).toBe(before);

      const id = await gw.createChannel({ ...restricted(), groups: ['vip-customers'] });
      const edited = await gw.admin.patch(`/api/admin/channels/${id}`, { groups: 'vip' });
      expect({ status: edited.status, body: edited.body }).toEqual({
        status: 400,
        body: operatorInvalid('groups must be an array', 'groups', 'isArray'),
      });
      expect((await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.groups).toEqual(['vip-customers']);
      await gw.admin.patch(`/api/admin/channels/${id}`, { status: 'disabled' }).expect(200);
    });

    it('a group is never matched by a substring, even of a string stored before the rule', async () => {
      const id = await gw.createChannel({ ...restricted(), name: `vip-legacy-${kind}`, groups: ['vip-customers'] });
      // A row written before groups were validated: the JSON column holds a string.
      await gw.app.get(DataSource).query('UPDATE channels SET user_groups = ? WHERE id = ?', [JSON.stringify('vip-customers'), id]);
      const vip = await gw.createCustomer({ quota: QUOTA, group: 'vip' });
      const calls = upstreamCalls();
      const res = await videos({ model: 'alpha/v3.5', prompt: 'a cat' }, vip.key);
      // Served only to vip-customers: to group vip it is another group's model, as unknown as any.
      expect({ status: res.status, message: res.body.error?.message }).toEqual({ status: 400, message: 'unknown model: alpha/v3.5' });
      expect(await gw.balance(vip.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
      expect(await ledgerTotal(vip.userId, 'consume')).toBe(0);
      expect(upstreamCalls()).toBe(calls);
      await gw.admin.patch(`/api/admin/channels/${id}`, { status: 'disabled' }).expect(200);
    });
  });

  describe('admin input within the column sizes (MariaDB refused these with a 500)', () => {
    const long = 'g'.repeat(65);

    it('a group name over 64 characters: users (create, edit) and group ratios', async () => {
      const tooLong = operatorInvalid('group must be shorter than or equal to 64 characters', 'group', 'columnLength');
      const users = (await gw.admin.get('/api/admin/users?page_size=100').expect(200)).body.total;
      const created = await gw.admin.post('/api/admin/users', { username: `long_${kind}`, group: long });
      expect({ status: created.status, body: created.body }).toEqual({ status: 400, body: tooLong });
      expect((await gw.admin.get('/api/admin/users?page_size=100').expect(200)).body.total).toBe(users);

      const edited = await gw.admin.patch(`/api/admin/users/${customer.userId}`, { group: long });
      expect({ status: edited.status, body: edited.body }).toEqual({ status: 400, body: tooLong });
      expect((await gw.admin.get(`/api/admin/users/${customer.userId}`).expect(200)).body.group).toBe('default');

      const ratio = await gw.admin.put(`/api/admin/group-ratios/${long}`, { ratio: 0.5 });
      expect({ status: ratio.status, body: ratio.body }).toEqual({ status: 400, body: tooLong });
      expect((await gw.admin.get('/api/admin/group-ratios').expect(200)).body.data).toEqual([]);
      // 65 characters as the column counts them, though class-validator's @Length counts 64 (it skips U+FE0F).
      const selector = 'g'.repeat(64) + '\uFE0F';
      for (const res of [
        await gw.admin.post('/api/admin/users', { username: `sel_${kind}`, group: selector }),
        await gw.admin.patch(`/api/admin/users/${customer.userId}`, { group: selector }),
        await gw.admin.put(`/api/admin/group-ratios/${encodeURIComponent(selector)}`, { ratio: 0.5 }),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: tooLong });
      }
      // 64 is still fine, on both databases.
      const fits = 'g'.repeat(64);
      expect((await gw.admin.put(`/api/admin/group-ratios/${fits}`, { ratio: 0.5 }).expect(200)).body).toEqual({ group: fits, ratio: 0.5 });
    });

    it('a page number past an exact row offset (1e21) is a 400, not a SQL error', async () => {
      const max = Math.floor(MAX_SAFE / 200);
      for (const path of ['/api/admin/logs', '/api/admin/tasks', '/api/admin/users']) {
        const res = await gw.admin.get(`${path}?page=1e21`);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 400,
          body: operatorInvalid(`page must not be greater than ${max}`, 'page', 'max'),
        });
        await gw.admin.get(`${path}?page=${max}`).expect(200);
      }
    });

    it('a price of 1e20 (or past the bound) is refused; the price table is unchanged', async () => {
      const table = (await gw.admin.get('/api/admin/prices').expect(200)).body.data;
      const base = { model: 'alpha/v6', resolution: '720p', unit: 'second' };
      for (const [body, param] of [
        [{ ...base, price: 1e20 }, 'price'],
        [{ ...base, price: 1_000_000_000_001 }, 'price'],
        [{ ...base, price: 900, audio_price: 1e20 }, 'audio_price'],
      ] as const) {
        const res = await gw.admin.put('/api/admin/prices', body);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: operatorInvalid(`${param} must not be greater than 1000000000000`, param, 'max'),
        });
      }
      expect((await gw.admin.get('/api/admin/prices').expect(200)).body.data).toEqual(table);
    });
  });

  describe('balances stay exact JSON integers (quota + used_quota never past 2^53 - 1)', () => {
    const pastMax = invalid(
      `quota would take the balance past ${MAX_SAFE} (quota plus used quota must stay an exact JSON integer)`,
      'quota',
    );

    it('refuses a top-up or an adjustment that would pass Number.MAX_SAFE_INTEGER, writing nothing', async () => {
      const { id } = (await gw.admin.post('/api/admin/users', { username: `rich_${kind}`, quota: MAX_SAFE - 10 }).expect(201)).body;
      for (const [path, body] of [
        ['topup', { quota: 11 }],
        ['adjust', { quota: 11, reason: 'too generous' }],
      ] as const) {
        const res = await gw.admin.post(`/api/admin/users/${id}/${path}`, body);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: pastMax });
      }
      expect(await gw.balance(id)).toEqual({ quota: MAX_SAFE - 10, used_quota: 0 });
      expect(await ledgerTotal(id, 'topup')).toBe(1);
      expect(await ledgerTotal(id, 'adjust')).toBe(0);
      // Up to the bound exactly is fine.
      expect((await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 10 }).expect(200)).body).toEqual({ id, quota: MAX_SAFE });
      const read = await gw.admin.get(`/api/admin/users/${id}`).expect(200);
      expect(read.text).toContain(`"quota":${MAX_SAFE}`);
    });

    it('counts the used quota too: what was spent cannot be topped up again past the bound', async () => {
      const { id } = (await gw.admin.post('/api/admin/users', { username: `spender_${kind}`, quota: MAX_SAFE - 100 }).expect(201)).body;
      const key = (await gw.admin.post(`/api/admin/users/${id}/keys`, { name: 'k' }).expect(201)).body.key;
      await videos({ model: 'alpha/v6', prompt: 'a cat' }, key).expect(200);
      expect(await gw.balance(id)).toEqual({ quota: MAX_SAFE - 100 - 4500, used_quota: 4500 });
      const res = await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 101 });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: pastMax });
      await gw.admin.post(`/api/admin/users/${id}/adjust`, { quota: 101, reason: 'x' }).expect(400);
      expect(await gw.balance(id)).toEqual({ quota: MAX_SAFE - 100 - 4500, used_quota: 4500 });
      await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 100 }).expect(200);
      expect(await gw.balance(id)).toEqual({ quota: MAX_SAFE - 4500, used_quota: 4500 });
    });

    it('is decided atomically: of two concurrent top-ups that only fit one at a time, exactly one lands', async () => {
      const { id } = (await gw.admin.post('/api/admin/users', { username: `race_${kind}`, quota: MAX_SAFE - 1000 }).expect(201)).body;
      const results = await Promise.all([600, 700].map((quota) => gw.admin.post(`/api/admin/users/${id}/topup`, { quota })));
      expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
      const landed = results.find((res) => res.status === 200)!.body.quota as number;
      expect(await gw.balance(id)).toEqual({ quota: landed, used_quota: 0 });
      expect(await ledgerTotal(id, 'topup')).toBe(2);
    });
  });
});

/** Family O forwards or fetches nothing the media URL policy refuses (as family B): 400 naming the field, before any charge. */
describeOnSqlite('faults: family O media URLs follow the media URL policy', (kind) => {
  let gw: TestGateway;
  let fake: OpenAiEmulatorServer;
  let customer: { userId: number; key: string };
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startOpenAiEmulator();
    gw = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    // The fake upstream is on loopback, which this gateway's admin API refuses: made as the gateway makes its own channels.
    await gw.app
      .get(ChannelsService)
      .create({ name: 'openai', platform: 'openai', baseUrl: `${fake.url}/v1`, apiKey: fake.apiKey, models: ['studio-1'] }, true);
    await addOpenAiModels(gw, ['studio-1'], 100);
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const refusedHost = (field: string) =>
    invalid(
      `${field} must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)`,
      field,
    );

  it.each<[string, unknown, string]>([
    ['a loopback URL', 'http://127.0.0.1:9/cat.png', 'input_reference'],
    ['a private URL', 'http://10.0.0.8/cat.png', 'input_reference'],
    ['a localhost name', 'http://localhost/cat.png', 'input_reference'],
    ['the metadata address as image_url', { image_url: 'http://169.254.169.254/latest' }, 'input_reference.image_url'],
    ['an IPv6 loopback image_url', { image_url: 'http://[::1]/cat.png' }, 'input_reference.image_url'],
  ])('input_reference: %s is a 400 naming the field; nothing charged, nothing sent upstream', async (_name, reference, field) => {
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'studio-1', prompt: 'a cat', input_reference: reference });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: refusedHost(field) });
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect((await gw.admin.get(`/api/admin/logs?user_id=${customer.userId}&type=consume`).expect(200)).body.total).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });
});

/** Family O's input_reference URL must be an image: what it fetches is checked before the charge. */
describeOnSqlite('faults: family O input_reference that is not an image', (kind) => {
  let gw: TestGateway;
  let fake: OpenAiEmulatorServer;
  let pages: LoopbackServer;
  let customer: { userId: number; key: string };
  const QUOTA = 1_000_000;
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 1)]);

  beforeAll(async () => {
    fake = await startOpenAiEmulator();
    pages = await startLoopbackServer((req, res) => {
      if (req.path === '/page.html') {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end('<!doctype html><html><body>a page about cats</body></html>');
      } else if (req.path === '/frame.png') {
        res.setHeader('content-type', 'image/png');
        res.end(PNG);
      } else {
        res.statusCode = 404;
        res.end('not found');
      }
    });
    gw = await startGateway(kind);
    await gw.app
      .get(ChannelsService)
      .create({ name: 'openai', platform: 'openai', baseUrl: `${fake.url}/v1`, apiKey: fake.apiKey, models: ['studio-1'] }, true);
    await addOpenAiModels(gw, ['studio-1'], 1000);
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
    await pages?.close();
  });

  const submit = (reference: unknown) =>
    gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'studio-1', prompt: 'a cat', input_reference: reference });

  it.each<[string, () => unknown, string, RegExp]>([
    ['an HTML page', () => `${pages.url}/page.html`, 'input_reference', /^input_reference must be a JPEG, PNG or WebP image/],
    [
      'an HTML page as image_url',
      () => ({ image_url: `${pages.url}/page.html` }),
      'input_reference.image_url',
      /must be a JPEG, PNG or WebP image/,
    ],
    ['a 404', () => `${pages.url}/gone.png`, 'input_reference', /^input_reference is not reachable \(HTTP 404\)/],
  ])('%s is a 400 naming the field; nothing charged, nothing sent upstream', async (_name, reference, field, message) => {
    const res = await submit(reference());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: field, message: expect.stringMatching(message), code: 'invalid_request' });
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it('an HTML file part is a 400 naming input_reference; nothing charged, nothing sent upstream', async () => {
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .field('model', 'studio-1')
      .field('prompt', 'a cat')
      .attach('input_reference', Buffer.from('<!doctype html><html></html>'), { filename: 'frame.png', contentType: 'image/png' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: 'input_reference', message: 'input_reference must be a JPEG, PNG or WebP image' });
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it('an image URL is taken and charged', async () => {
    const res = await submit(`${pages.url}/frame.png`);
    expect(res.status).toBe(200);
    expect((await gw.balance(customer.userId)).used_quota).toBeGreaterThan(0);
  });
});
