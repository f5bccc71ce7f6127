import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, executeOnDatabase, itOnSqliteOnly } from './support/test-databases';

const QUOTA = 1_000_000;
/** What an operator sells kling-v3-1 at: per second, in quota units. */
const V3_720P = 800;
const V3_1080P = 1_200;

const KLING_V3 = {
  id: 'kling-v3-1',
  label: 'Kling 3.1',
  modes: ['text-to-video', 'image-to-video'],
  durations: { min: 3, max: 15 },
  default_duration: 5,
  resolutions: ['720p', '1080p'],
  aspect_ratios: ['16:9', '9:16', '1:1'],
  audio: 'none',
  prices: [
    { resolution: '720p', unit: 'second', price: V3_720P },
    { resolution: '1080p', unit: 'second', price: V3_1080P },
  ],
  routes: [{ platform: 'kling', upstream_model: 'kling-v3-1' }],
};

/**
 * The model catalog as an operator and a customer use it, on every database: a model added with no
 * release reaches its provider as its entry says and is charged what the quote said; CRUD, import
 * and export; the discovery lists by key allowlist and group; deprecation and retirement; and the
 * merge of a release's builtin entries into a database made before it.
 */
describeEachDatabase('model catalog', (kind) => {
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let channelId: number;
  let customer: { userId: number; key: string; keyId: number };
  /** Set once the last test restarted the gateway on the same database (whose close then leaves it). */
  let restarted = false;

  beforeAll(async () => {
    kling = await startKlingEmulator();
    gw = await startGateway(kind);
    channelId = await gw.createChannel({
      name: 'kling-main',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: ['kling-v2-6'],
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    if (restarted) await gw.database.drop();
    await kling?.close();
  });

  const as = (key: string) => ({
    post: (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body),
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
  });
  const balance = () => gw.balance(customer.userId);

  it('an operator adds kling-v3-1 (3 to 15 s) with no release; a 7 s task reaches Kling as its entry says, charged exactly what the quote said', async () => {
    // Not routed yet: the channel cannot list it.
    const early = await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: ['kling-v2-6', 'kling-v3-1'] }).expect(400);
    expect(early.body.error).toMatchObject({ param: 'models', message: expect.stringContaining('kling-v3-1 is not in the model catalog') });
    const created = await gw.admin.post('/api/admin/models', KLING_V3).expect(201);
    expect(created.body).toMatchObject({ id: 'kling-v3-1', source: 'custom', modified: false, durations: { min: 3, max: 15 } });
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: ['kling-v2-6', 'kling-v3-1'] }).expect(200);

    const body = { model: 'kling-v3-1', prompt: 'a lighthouse at dusk', seconds: '7', size: '1280x720' };
    const before = await balance();
    const quote = await as(customer.key).post('/v1/videos/quote', body).expect(200);
    expect(quote.body).toMatchObject({ model: 'kling-v3-1', seconds: 7, resolution: '720p', audio: false, quota: 7 * V3_720P });
    expect(quote.body.usd).toBeCloseTo((7 * V3_720P) / 10_000, 6);
    const unifiedQuote = await as(customer.key)
      .post('/v1/video/generations/quote', { model: 'kling-v3-1', prompt: 'p', duration: 7, resolution: '1080p' })
      .expect(200);
    expect(unifiedQuote.body).toMatchObject({ code: 'success', data: { model: 'kling-v3-1', seconds: 7, quota: 7 * V3_1080P } });
    // A quote charges nothing, sends nothing and makes no task.
    expect(await balance()).toEqual(before);
    const createsBefore = kling.creates.length;
    const tasksBefore = (await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}`).expect(200)).body.total;

    const submitted = await as(customer.key).post('/v1/videos', body).expect(200);
    expect(kling.creates).toHaveLength(createsBefore + 1);
    expect(kling.creates.at(-1)!.body).toMatchObject({ model_name: 'kling-v3-1', duration: '7', mode: 'std' });
    expect(await balance()).toEqual({ quota: before.quota - quote.body.quota, used_quota: before.used_quota + quote.body.quota });
    expect((await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}`).expect(200)).body.total).toBe(tasksBefore + 1);
    expect(submitted.body).toMatchObject({ model: 'kling-v3-1', status: 'queued' });

    // Outside its entry: a 400 naming the field, before any charge, on the quote and the submit alike.
    for (const path of ['/v1/videos/quote', '/v1/videos']) {
      const refused = await as(customer.key)
        .post(path, { ...body, seconds: '16' })
        .expect(400);
      expect(refused.body.error).toMatchObject({
        param: 'seconds',
        message: 'seconds must be a whole number of seconds from 3 to 15 for kling-v3-1',
      });
    }
    expect(await balance()).toEqual({ quota: before.quota - quote.body.quota, used_quota: before.used_quota + quote.body.quota });
  });

  itOnSqliteOnly(kind)(
    "refuses an unknown model with the interface's exact message, a route option its platform refuses, and a quote the balance could not pay",
    async () => {
      const unknown = await as(customer.key).post('/v1/videos/quote', { model: 'kling-v9', prompt: 'p' }).expect(400);
      expect(unknown.body.error).toMatchObject({ param: 'model', message: 'unknown model: kling-v9' });
      const badOption = await gw.admin
        .post('/api/admin/models', {
          ...KLING_V3,
          id: 'kling-v3-1-x',
          routes: [{ platform: 'kling', upstream_model: 'kling-v3-1', options: { turbo: true } }],
        })
        .expect(400);
      expect(badOption.body.error).toMatchObject({ param: 'routes[0].options.turbo' });
      const badDurations = await gw.admin
        .post('/api/admin/models', { ...KLING_V3, id: 'kling-v3-1-y', durations: { min: 5, max: 3 } })
        .expect(400);
      expect(badDurations.body.error).toMatchObject({ param: 'durations' });
      const duplicate = await gw.admin.post('/api/admin/models', KLING_V3).expect(409);
      expect(duplicate.body.error.message).toContain('kling-v3-1 exists');
      const poor = await gw.createCustomer({ quota: 100 });
      const refused = await as(poor.key).post('/v1/videos/quote', { model: 'kling-v3-1', prompt: 'p', seconds: '5' }).expect(402);
      expect(refused.body.error.code).toBe('insufficient_quota');
    },
  );

  it('lists only the models the key may use that a channel open to the caller group serves, with the group prices', async () => {
    await gw.admin.put('/api/admin/group-ratios/vip', { ratio: 0.5 }).expect(200);
    const vip = await gw.createCustomer({ quota: QUOTA, group: 'vip', models: ['kling-v3-1'] });
    const all = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data.map((model: { id: string }) => model.id);
    expect(all).toEqual(expect.arrayContaining(['kling-v2-6', 'kling-v3-1']));
    // kling-v2-5-turbo is in the catalog, but no channel lists it.
    expect(all).not.toContain('kling-v2-5-turbo');
    const vipList = (await as(vip.key).get('/v1/videos/models').expect(200)).body.data;
    expect(vipList.map((model: { id: string }) => model.id)).toEqual(['kling-v3-1']);
    expect(vipList[0]).toMatchObject({
      durations: { min: 3, max: 15 },
      default_duration: 5,
      prices: [
        { resolution: '1080p', unit: 'second', quota: V3_1080P / 2 },
        { resolution: '720p', unit: 'second', quota: V3_720P / 2, usd: V3_720P / 2 / 10_000 },
      ],
      status: 'active',
    });
    const openAi = (await as(vip.key).get('/v1/models').expect(200)).body;
    expect(openAi).toEqual({
      object: 'list',
      data: [{ id: 'kling-v3-1', object: 'model', created: expect.any(Number), owned_by: 'kling' }],
    });
    // A channel closed to the caller's group serves nobody in it.
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { groups: ['default'] }).expect(200);
    expect((await as(vip.key).get('/v1/videos/models').expect(200)).body.data).toEqual([]);
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { groups: [] }).expect(200);
  });

  it('deprecation says so in headers; after the sunset, or once retired, submits and quotes are 410 naming the replacement, charged nothing; old tasks keep working', async () => {
    const body = { model: 'kling-v3-1', prompt: 'p', seconds: '5' };
    const task = (await as(customer.key).post('/v1/videos', body).expect(200)).body;
    const sunset = Math.floor(Date.now() / 1000) + 3600;
    await gw.admin
      .patch('/api/admin/models/kling-v3-1', { status: 'deprecated', sunset_at: sunset, replacement: 'kling-v2-6' })
      .expect(200);
    const deprecated = await as(customer.key).post('/v1/videos/quote', body).expect(200);
    expect(deprecated.headers.deprecation).toMatch(/^@\d+$/);
    expect(deprecated.headers.sunset).toBe(new Date(sunset * 1000).toUTCString());
    expect(deprecated.headers['x-gateway-warning']).toContain('use kling-v2-6');
    const before = await balance();
    await gw.admin.patch('/api/admin/models/kling-v3-1', { sunset_at: Math.floor(Date.now() / 1000) - 1 }).expect(200);
    for (const path of ['/v1/videos/quote', '/v1/videos']) {
      const gone = await as(customer.key).post(path, body).expect(410);
      expect(gone.body.error).toMatchObject({ code: 'model_retired', message: 'model kling-v3-1 is retired; use kling-v2-6 instead' });
    }
    await gw.admin.patch('/api/admin/models/kling-v3-1', { status: 'retired', sunset_at: null }).expect(200);
    const unified = await as(customer.key).post('/v1/video/generations', { model: 'kling-v3-1', prompt: 'p', duration: 5 }).expect(410);
    expect(unified.body).toMatchObject({ code: 'model_retired' });
    expect(await balance()).toEqual(before);
    // The task made before keeps working, and the retired model leaves the lists.
    expect((await as(customer.key).get(`/v1/videos/${task.id}`).expect(200)).body).toMatchObject({ id: task.id, model: 'kling-v3-1' });
    const listed = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data.map((model: { id: string }) => model.id);
    expect(listed).not.toContain('kling-v3-1');
    // It has tasks: it can be retired, not deleted.
    const kept = await gw.admin.delete('/api/admin/models/kling-v3-1').expect(409);
    expect(kept.body.error.message).toContain('has tasks');
  });

  it('CRUD, export and import: a dry run shows the diff and changes nothing; the import applies it; builtin entries the operator changed are kept', async () => {
    const draft = { ...KLING_V3, id: 'kling-draft', label: 'Draft', routes: [{ platform: 'kling', upstream_model: 'kling-v3-1' }] };
    await gw.admin.post('/api/admin/models', draft).expect(201);
    const cleared = await gw.admin.patch('/api/admin/models/kling-draft', { label: null, durations: [5, 10] }).expect(200);
    expect(cleared.body).toMatchObject({ label: null, durations: [5, 10], default_duration: 5 });
    expect((await gw.admin.patch('/api/admin/models/kling-draft', { modes: null }).expect(400)).body.error.param).toBe('modes');
    await gw.admin.delete('/api/admin/models/kling-draft').expect(204);
    await gw.admin.get('/api/admin/models/kling-draft').expect(404);
    expect((await gw.admin.delete('/api/admin/models/kling-v2-6').expect(409)).body.error.message).toContain('builtin');

    // The operator changes a builtin price on the Prices page: the entry says so.
    await gw.admin
      .put('/api/admin/prices', { model: 'kling-v2-6', resolution: '1080p', unit: 'second', price: 999, audio_price: 1998 })
      .expect(200);
    expect((await gw.admin.get('/api/admin/models/kling-v2-6').expect(200)).body).toMatchObject({
      source: 'builtin',
      modified: true,
      prices: [{ resolution: '1080p', price: 999, audio_price: 1998 }],
    });

    const exported = (await gw.admin.get('/api/admin/models/export').expect(200)).body;
    expect(exported.version).toBe(1);
    const file = {
      version: 1,
      models: exported.models
        .filter((model: { id: string }) => ['kling-v2-6', 'kling-v2-1'].includes(model.id))
        .map((model: { id: string; label: string | null }) => ({ ...model, label: `${model.id} (imported)` }))
        .concat([{ ...KLING_V3, id: 'kling-imported' }]),
    };
    const dry = await gw.admin.post('/api/admin/models/import?dry_run=true', file).expect(200);
    expect(dry.body).toEqual({ added: ['kling-imported'], changed: ['kling-v2-1'], unchanged: [], kept_operator_changes: ['kling-v2-6'] });
    await gw.admin.get('/api/admin/models/kling-imported').expect(404);
    const applied = await gw.admin.post('/api/admin/models/import', file).expect(200);
    expect(applied.body).toEqual(dry.body);
    expect((await gw.admin.get('/api/admin/models/kling-imported').expect(200)).body).toMatchObject({ source: 'custom' });
    expect((await gw.admin.get('/api/admin/models/kling-v2-1').expect(200)).body).toMatchObject({
      label: 'kling-v2-1 (imported)',
      modified: true,
    });
    expect((await gw.admin.get('/api/admin/models/kling-v2-6').expect(200)).body.label).toBe('Kling 2.6');
    const again = await gw.admin.post('/api/admin/models/import?dry_run=1', file).expect(200);
    expect(again.body.unchanged).toEqual(expect.arrayContaining(['kling-imported', 'kling-v2-1']));
  });

  it('every catalog field is bounded to what every database stores and the gateway prints: a 400 naming the field, nothing written', async () => {
    const refusals: Array<[string, object, string]> = [
      ['sunset_at 1e15', { sunset_at: 1e15 }, 'sunset_at'],
      ['sunset_at 2^63', { sunset_at: 2 ** 63 }, 'sunset_at'],
      ['sunset_at 1e308', { sunset_at: 1e308 }, 'sunset_at'],
      [
        'upstream_model by mode of 70 kB',
        { routes: [{ platform: 'kling', upstream_model: { 'text-to-video': 'k'.repeat(70_000) } }] },
        'routes[0].upstream_model',
      ],
      ['32 resolutions of 3 kB', { resolutions: Array.from({ length: 32 }, (_, i) => `${i}p`.padEnd(3000, 'x')) }, 'resolutions'],
    ];
    for (const [name, over, param] of refusals) {
      const refused = await gw.admin.post('/api/admin/models', { ...KLING_V3, id: 'kling-bounds', ...over });
      expect({ name, status: refused.status, param: refused.body.error?.param }).toEqual({ name, status: 400, param });
    }
    await gw.admin.get('/api/admin/models/kling-bounds').expect(404);
    // An import of four, the last out of bounds: a 400 naming it, dry run or not, and none of the four written.
    const file = {
      version: 1,
      models: [1, 2, 3, 4].map((n) => ({
        ...KLING_V3,
        id: `kling-four-${n}`,
        ...(n === 4 ? { status: 'deprecated', sunset_at: 2 ** 63 } : {}),
      })),
    };
    for (const path of ['/api/admin/models/import?dry_run=true', '/api/admin/models/import']) {
      const refused = await gw.admin.post(path, file).expect(400);
      expect(refused.body.error).toMatchObject({ param: 'models[3].sunset_at' });
    }
    await gw.admin.get('/api/admin/models/kling-four-1').expect(404);
    // The largest date accepted prints.
    await gw.admin
      .post('/api/admin/models', { ...KLING_V3, id: 'kling-far', status: 'deprecated', sunset_at: 253_402_300_799 })
      .expect(201);
  });

  it('a sunset no Date can print (stored before the bound) never makes a 500 behind a charged task: the answer goes out, charged once', async () => {
    await gw.admin.post('/api/admin/models', { ...KLING_V3, id: 'kling-legacy', status: 'deprecated' }).expect(201);
    const channel = (await gw.admin.get(`/api/admin/channels/${channelId}`).expect(200)).body;
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: [...channel.models, 'kling-legacy'] }).expect(200);
    await executeOnDatabase(gw.database, "UPDATE catalog_models SET sunset_at = 1000000000000000 WHERE model_id = 'kling-legacy'");
    // Any write clears this instance's cached catalog.
    await gw.admin.post('/api/admin/models', { ...KLING_V3, id: 'kling-cache-clear' }).expect(201);
    const body = { model: 'kling-legacy', prompt: 'p', seconds: '5' };
    const quote = await as(customer.key).post('/v1/videos/quote', body).expect(200);
    expect(quote.headers.deprecation).toMatch(/^@\d+$/);
    expect(quote.headers.sunset).toBeUndefined();
    const before = await balance();
    const submitted = await as(customer.key).post('/v1/videos', body).expect(200);
    expect(submitted.headers['x-gateway-warning']).toBe('model is deprecated and will be refused');
    expect(await balance()).toEqual({ quota: before.quota - quote.body.quota, used_quota: before.used_quota + quote.body.quota });
    // The operator puts a date on it that the gateway can print.
    await gw.admin.patch('/api/admin/models/kling-legacy', { sunset_at: null }).expect(200);
  });

  itOnSqliteOnly(kind)("a key's allowlist names a model as its family compares ids: kling's ids ignore case, fal's are exact", async () => {
    const upper = await gw.createCustomer({ quota: QUOTA, models: ['KLING-V2-6'] });
    await as(upper.key).post('/v1/videos/quote', { model: 'kling-v2-6', prompt: 'p', seconds: '5' }).expect(200);
    expect((await as(upper.key).get('/v1/models').expect(200)).body.data.map((model: { id: string }) => model.id)).toEqual(['kling-v2-6']);
    // fal's ids are exact: a key allowed casea may not use CaseA, another model.
    const fal = { platform: 'fal', upstream_model: 'fal-ai/case', options: { input_map: { prompt: 'prompt' } } };
    for (const id of ['casea', 'CaseA']) await gw.admin.post('/api/admin/models', { ...KLING_V3, id, routes: [fal] }).expect(201);
    await gw.createChannel({ name: 'fal-case', platform: 'fal', base_url: kling.url, api_key: 'key:secret', models: ['casea', 'CaseA'] });
    const lower = await gw.createCustomer({ quota: QUOTA, models: ['casea'] });
    await as(lower.key).post('/v1/videos/quote', { model: 'casea', prompt: 'p', seconds: '5' }).expect(200);
    const refused = await as(lower.key).post('/v1/videos/quote', { model: 'CaseA', prompt: 'p', seconds: '5' }).expect(403);
    expect(refused.body.error).toMatchObject({ param: 'model', message: 'api key is not allowed to use model CaseA' });
    expect((await as(lower.key).get('/v1/models').expect(200)).body.data.map((model: { id: string }) => model.id)).toEqual(['casea']);
  });

  itOnSqliteOnly(kind)(
    "another group's model never shows: not as a replacement in the list, in a 410 or in X-Gateway-Warning; its quote is the unknown model's 400",
    async () => {
      await gw.admin.post('/api/admin/models', { ...KLING_V3, id: 'kling-vip-only' }).expect(201);
      await gw.createChannel({
        name: 'kling-vip',
        platform: 'kling',
        base_url: kling.url,
        api_key: kling.apiKey,
        models: ['kling-vip-only'],
        groups: ['vip'],
      });
      await gw.admin
        .post('/api/admin/models', { ...KLING_V3, id: 'kling-old', status: 'deprecated', replacement: 'kling-vip-only' })
        .expect(201);
      const channel = (await gw.admin.get(`/api/admin/channels/${channelId}`).expect(200)).body;
      await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: [...channel.models, 'kling-old'] }).expect(200);
      const vip = await gw.createCustomer({ quota: QUOTA, group: 'vip' });
      const body = { model: 'kling-old', prompt: 'p', seconds: '5' };

      const listed = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data;
      expect(listed.find((model: { id: string }) => model.id === 'kling-old')).not.toHaveProperty('replacement');
      expect(listed.map((model: { id: string }) => model.id)).not.toContain('kling-vip-only');
      const warned = await as(customer.key).post('/v1/videos/quote', body).expect(200);
      expect(warned.headers['x-gateway-warning']).toBe('model is deprecated and will be refused');
      const before = await balance();
      for (const path of ['/v1/videos/quote', '/v1/videos']) {
        const unknown = await as(customer.key)
          .post(path, { ...body, model: 'kling-vip-only' })
          .expect(400);
        expect(unknown.body.error).toMatchObject({ param: 'model', message: 'unknown model: kling-vip-only' });
      }
      expect(await balance()).toEqual(before);
      // To its own group it shows, as the replacement too.
      const vipListed = (await as(vip.key).get('/v1/videos/models').expect(200)).body.data;
      expect(vipListed.find((model: { id: string }) => model.id === 'kling-old')).toMatchObject({ replacement: 'kling-vip-only' });
      expect((await as(vip.key).post('/v1/videos/quote', body).expect(200)).headers['x-gateway-warning']).toContain('use kling-vip-only');

      await gw.admin.patch('/api/admin/models/kling-old', { status: 'retired' }).expect(200);
      const gone = await as(customer.key).post('/v1/videos/quote', body).expect(410);
      expect(gone.body.error.message).toBe('model kling-old is retired');
      const vipGone = await as(vip.key).post('/v1/videos/quote', body).expect(410);
      expect(vipGone.body.error.message).toBe('model kling-old is retired; use kling-vip-only instead');

      // A replacement cannot be deleted from under its entry: 409 naming who refers to it.
      const refused = await gw.admin.delete('/api/admin/models/kling-vip-only').expect(409);
      expect(refused.body.error.message).toContain('is the replacement of kling-old');
      await gw.admin.get('/api/admin/models/kling-vip-only').expect(200);
      await gw.admin.patch('/api/admin/models/kling-old', { replacement: null }).expect(200);
    },
  );

  itOnSqliteOnly(kind)(
    'GET /v1/models and /v1/videos/models page with limit and after; without them, the whole list as before',
    async () => {
      const whole = (await as(customer.key).get('/v1/videos/models').expect(200)).body;
      expect(Object.keys(whole)).toEqual(['data']);
      const ids = whole.data.map((model: { id: string }) => model.id).sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0));
      expect(ids.length).toBeGreaterThanOrEqual(2);
      const first = (await as(customer.key).get('/v1/videos/models?limit=1').expect(200)).body;
      expect(first).toMatchObject({ first_id: ids[0], last_id: ids[0], has_more: true });
      expect(first.data.map((model: { id: string }) => model.id)).toEqual(ids.slice(0, 1));
      const rest = (
        await as(customer.key)
          .get(`/v1/videos/models?limit=1000&after=${encodeURIComponent(first.last_id)}`)
          .expect(200)
      ).body;
      expect(rest.data.map((model: { id: string }) => model.id)).toEqual(ids.slice(1));
      expect(rest.has_more).toBe(false);
      const openAi = (await as(customer.key).get('/v1/models?limit=1').expect(200)).body;
      expect(openAi).toMatchObject({ object: 'list', data: [{ id: ids[0], object: 'model' }], has_more: true, last_id: ids[0] });
      expect((await as(customer.key).get('/v1/models?limit=0').expect(400)).body.error).toMatchObject({ param: 'limit' });
    },
  );

  it('an import reads the largest export the catalog may grow to: a file over 1 MB imports, and its export imports again', async () => {
    // 32 resolutions x 8 clip lengths: 256 prices an entry, about 20 kB.
    const resolutions = Array.from({ length: 32 }, (_, n) => `${100 + n}p`);
    const prices = resolutions.flatMap((resolution) =>
      [1, 2, 3, 4, 5, 6, 7, 8].map((duration) => ({
        resolution,
        unit: 'clip',
        duration,
        price: 1_000_000 + duration,
        audio_price: 2_000_000,
      })),
    );
    const models = Array.from({ length: 60 }, (_, n) => ({ ...KLING_V3, id: `kling-big-${n}`, resolutions, prices }));
    const file = { version: 1, models };
    expect(JSON.stringify(file).length).toBeGreaterThan(1024 * 1024);
    const applied = await gw.admin.post('/api/admin/models/import', file);
    expect({ status: applied.status, error: applied.body.error }).toEqual({ status: 200, error: undefined });
    expect(applied.body.added).toHaveLength(60);
    const exported = (await gw.admin.get('/api/admin/models/export').expect(200)).body;
    const again = await gw.admin.post('/api/admin/models/import?dry_run=true', exported);
    expect({ status: again.status, error: again.body.error }).toEqual({ status: 200, error: undefined });
    expect(again.body.added).toEqual([]);
    expect(again.body.changed).toEqual([]);
  }, 60_000);

  it("a database made by the previous release gains the builtin models with their prices at start; the operator's price stays", async () => {
    // Stopped, its database kept.
    await gw.app.close();
    // As the previous release left it: no catalog rows, a price the operator changed, and no price for a model new in this release.
    await executeOnDatabase(gw.database, 'DELETE FROM catalog_models');
    await executeOnDatabase(gw.database, "UPDATE price_rules SET price = 4321 WHERE model = 'kling-v2-5-turbo' AND resolution = '720p'");
    await executeOnDatabase(gw.database, "DELETE FROM price_rules WHERE model = 'kling-v2-1-master'");
    gw = await startGateway(kind, {}, gw.database);
    restarted = true;
    const master = (await gw.admin.get('/api/admin/models/kling-v2-1-master').expect(200)).body;
    expect(master).toMatchObject({ source: 'builtin', modified: false, prices: [{ resolution: '1080p', unit: 'second', price: 2800 }] });
    const turbo = (await gw.admin.get('/api/admin/models/kling-v2-5-turbo').expect(200)).body;
    expect(turbo).toMatchObject({ source: 'builtin', modified: true });
    expect(turbo.prices).toEqual(expect.arrayContaining([expect.objectContaining({ resolution: '720p', price: 4321 })]));
    const prices = (await gw.admin.get('/api/admin/prices').expect(200)).body.data;
    expect(prices).toEqual(expect.arrayContaining([expect.objectContaining({ model: 'kling-v2-1-master', price: 2800 })]));
  });

  it('a release that retires builtin models retires them on a database the previous release made; one the operator changed stays as the operator left it; a submit or quote is a 410 naming the replacement, charged nothing', async () => {
    // The operator re-activated sora-2-pro (their own OpenAI-compatible server still serves it).
    await gw.admin.patch('/api/admin/models/sora-2-pro', { status: 'active', sunset_at: null, replacement: null }).expect(200);
    await gw.app.close();
    // As the previous release left them, unchanged by the operator: sora-2 active, the Veo 3.1 Fast preview deprecated with no sunset.
    await executeOnDatabase(
      gw.database,
      "UPDATE catalog_models SET status = 'active', sunset_at = NULL, replacement = NULL WHERE model_id = 'sora-2'",
    );
    await executeOnDatabase(
      gw.database,
      "UPDATE catalog_models SET status = 'deprecated', sunset_at = NULL, replacement = 'veo3.1_fast' WHERE model_id = 'veo-3.1-fast-generate-preview'",
    );
    gw = await startGateway(kind, {}, gw.database);
    const entry = async (id: string) => (await gw.admin.get(`/api/admin/models/${id}`).expect(200)).body;
    expect(await entry('sora-2')).toMatchObject({
      status: 'retired',
      sunset_at: Date.UTC(2026, 8, 24) / 1000,
      replacement: null,
      modified: false,
    });
    expect(await entry('veo-3.1-fast-generate-preview')).toMatchObject({
      status: 'retired',
      sunset_at: Date.UTC(2026, 9, 22) / 1000,
      replacement: 'veo3.1_fast',
      modified: false,
    });
    expect(await entry('veo-3.0-generate-001')).toMatchObject({
      status: 'retired',
      sunset_at: Date.UTC(2026, 5, 30) / 1000,
      replacement: null,
    });
    expect(await entry('sora-2-pro')).toMatchObject({ status: 'active', sunset_at: null, replacement: null, modified: true });

    // Channels serve them (the replacement on Runway): the 410 names it where one serves the same model; nothing is charged.
    const channel = { base_url: 'http://127.0.0.1:9', api_key: 'key_retired-test' };
    await gw.createChannel({ ...channel, name: 'openai-main', platform: 'openai', models: ['sora-2'] });
    await gw.createChannel({ ...channel, name: 'veo-main', platform: 'veo', models: ['veo-3.1-fast-generate-preview'] });
    await gw.createChannel({ ...channel, name: 'runway-main', platform: 'runway', models: ['veo3.1_fast'] });
    const before = await balance();
    const retired: Array<[string, object, string]> = [
      ['/v1/videos', { model: 'sora-2', prompt: 'p', seconds: '4' }, 'model sora-2 is retired'],
      ['/v1/videos/quote', { model: 'sora-2', prompt: 'p', seconds: '4' }, 'model sora-2 is retired'],
      [
        '/v1/videos',
        { model: 'veo-3.1-fast-generate-preview', prompt: 'p' },
        'model veo-3.1-fast-generate-preview is retired; use veo3.1_fast instead',
      ],
      [
        '/v1/videos/quote',
        { model: 'veo-3.1-fast-generate-preview', prompt: 'p' },
        'model veo-3.1-fast-generate-preview is retired; use veo3.1_fast instead',
      ],
    ];
    for (const [path, body, message] of retired) {
      const gone = await as(customer.key).post(path, body).expect(410);
      expect(gone.body.error).toMatchObject({ code: 'model_retired', message });
    }
    expect(await balance()).toEqual(before);
  });
});
