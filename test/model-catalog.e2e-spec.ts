import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, executeOnDatabase } from './support/test-databases';

const QUOTA = 1_000_000;
/** What an operator sells kling-v3 at: per second, in quota units. */
const V3_720P = 800;
const V3_1080P = 1_200;

const KLING_V3 = {
  id: 'kling-v3',
  label: 'Kling 3.0',
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
  routes: [{ platform: 'kling', upstream_model: 'kling-v3' }],
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

  it('an operator adds kling-v3 (3 to 15 s) with no release; a 7 s task reaches Kling as its entry says, charged exactly what the quote said', async () => {
    // Not routed yet: the channel cannot list it.
    const early = await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: ['kling-v2-6', 'kling-v3'] }).expect(400);
    expect(early.body.error).toMatchObject({ param: 'models', message: expect.stringContaining('kling-v3 is not in the model catalog') });
    const created = await gw.admin.post('/api/admin/models', KLING_V3).expect(201);
    expect(created.body).toMatchObject({ id: 'kling-v3', source: 'custom', modified: false, durations: { min: 3, max: 15 } });
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { models: ['kling-v2-6', 'kling-v3'] }).expect(200);

    const body = { model: 'kling-v3', prompt: 'a lighthouse at dusk', seconds: '7', size: '1280x720' };
    const before = await balance();
    const quote = await as(customer.key).post('/v1/videos/quote', body).expect(200);
    expect(quote.body).toMatchObject({ model: 'kling-v3', seconds: 7, resolution: '720p', audio: false, quota: 7 * V3_720P });
    expect(quote.body.usd).toBeCloseTo((7 * V3_720P) / 10_000, 6);
    const unifiedQuote = await as(customer.key)
      .post('/v1/video/generations/quote', { model: 'kling-v3', prompt: 'p', duration: 7, resolution: '1080p' })
      .expect(200);
    expect(unifiedQuote.body).toMatchObject({ code: 'success', data: { model: 'kling-v3', seconds: 7, quota: 7 * V3_1080P } });
    // A quote charges nothing, sends nothing and makes no task.
    expect(await balance()).toEqual(before);
    const createsBefore = kling.creates.length;
    const tasksBefore = (await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}`).expect(200)).body.total;

    const submitted = await as(customer.key).post('/v1/videos', body).expect(200);
    expect(kling.creates).toHaveLength(createsBefore + 1);
    expect(kling.creates.at(-1)!.body).toMatchObject({ model_name: 'kling-v3', duration: '7', mode: 'std' });
    expect(await balance()).toEqual({ quota: before.quota - quote.body.quota, used_quota: before.used_quota + quote.body.quota });
    expect((await gw.admin.get(`/api/admin/tasks?user_id=${customer.userId}`).expect(200)).body.total).toBe(tasksBefore + 1);
    expect(submitted.body).toMatchObject({ model: 'kling-v3', status: 'queued' });

    // Outside its entry: a 400 naming the field, before any charge, on the quote and the submit alike.
    for (const path of ['/v1/videos/quote', '/v1/videos']) {
      const refused = await as(customer.key)
        .post(path, { ...body, seconds: '16' })
        .expect(400);
      expect(refused.body.error).toMatchObject({
        param: 'seconds',
        message: 'seconds must be a whole number of seconds from 3 to 15 for kling-v3',
      });
    }
    expect(await balance()).toEqual({ quota: before.quota - quote.body.quota, used_quota: before.used_quota + quote.body.quota });
  });

  it('refuses an unknown model pointing at the model list, a route option its platform refuses, and a quote the balance could not pay', async () => {
    const unknown = await as(customer.key).post('/v1/videos/quote', { model: 'kling-v9', prompt: 'p' }).expect(400);
    expect(unknown.body.error).toMatchObject({ param: 'model', message: expect.stringContaining('GET /v1/videos/models') });
    const badOption = await gw.admin
      .post('/api/admin/models', {
        ...KLING_V3,
        id: 'kling-v3-x',
        routes: [{ platform: 'kling', upstream_model: 'kling-v3', options: { turbo: true } }],
      })
      .expect(400);
    expect(badOption.body.error).toMatchObject({ param: 'routes[0].options.turbo' });
    const badDurations = await gw.admin
      .post('/api/admin/models', { ...KLING_V3, id: 'kling-v3-y', durations: { min: 5, max: 3 } })
      .expect(400);
    expect(badDurations.body.error).toMatchObject({ param: 'durations' });
    const duplicate = await gw.admin.post('/api/admin/models', KLING_V3).expect(409);
    expect(duplicate.body.error.message).toContain('kling-v3 exists');
    const poor = await gw.createCustomer({ quota: 100 });
    const refused = await as(poor.key).post('/v1/videos/quote', { model: 'kling-v3', prompt: 'p', seconds: '5' }).expect(402);
    expect(refused.body.error.code).toBe('insufficient_quota');
  });

  it('lists only the models the key may use that a channel open to the caller group serves, with the group prices', async () => {
    await gw.admin.put('/api/admin/group-ratios/vip', { ratio: 0.5 }).expect(200);
    const vip = await gw.createCustomer({ quota: QUOTA, group: 'vip', models: ['kling-v3'] });
    const all = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data.map((model: { id: string }) => model.id);
    expect(all).toEqual(expect.arrayContaining(['kling-v2-6', 'kling-v3']));
    // kling-v2-5-turbo is in the catalog, but no channel lists it.
    expect(all).not.toContain('kling-v2-5-turbo');
    const vipList = (await as(vip.key).get('/v1/videos/models').expect(200)).body.data;
    expect(vipList.map((model: { id: string }) => model.id)).toEqual(['kling-v3']);
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
    expect(openAi).toEqual({ object: 'list', data: [{ id: 'kling-v3', object: 'model', created: expect.any(Number), owned_by: 'kling' }] });
    // A channel closed to the caller's group serves nobody in it.
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { groups: ['default'] }).expect(200);
    expect((await as(vip.key).get('/v1/videos/models').expect(200)).body.data).toEqual([]);
    await gw.admin.patch(`/api/admin/channels/${channelId}`, { groups: [] }).expect(200);
  });

  it('deprecation says so in headers; after the sunset, or once retired, submits and quotes are 410 naming the replacement, charged nothing; old tasks keep working', async () => {
    const body = { model: 'kling-v3', prompt: 'p', seconds: '5' };
    const task = (await as(customer.key).post('/v1/videos', body).expect(200)).body;
    const sunset = Math.floor(Date.now() / 1000) + 3600;
    await gw.admin.patch('/api/admin/models/kling-v3', { status: 'deprecated', sunset_at: sunset, replacement: 'kling-v2-6' }).expect(200);
    const deprecated = await as(customer.key).post('/v1/videos/quote', body).expect(200);
    expect(deprecated.headers.deprecation).toMatch(/^@\d+$/);
    expect(deprecated.headers.sunset).toBe(new Date(sunset * 1000).toUTCString());
    expect(deprecated.headers['x-gateway-warning']).toContain('use kling-v2-6');
    const before = await balance();
    await gw.admin.patch('/api/admin/models/kling-v3', { sunset_at: Math.floor(Date.now() / 1000) - 1 }).expect(200);
    for (const path of ['/v1/videos/quote', '/v1/videos']) {
      const gone = await as(customer.key).post(path, body).expect(410);
      expect(gone.body.error).toMatchObject({ code: 'model_retired', message: 'model kling-v3 is retired; use kling-v2-6 instead' });
    }
    await gw.admin.patch('/api/admin/models/kling-v3', { status: 'retired', sunset_at: null }).expect(200);
    const unified = await as(customer.key).post('/v1/video/generations', { model: 'kling-v3', prompt: 'p', duration: 5 }).expect(410);
    expect(unified.body).toMatchObject({ code: 'model_retired' });
    expect(await balance()).toEqual(before);
    // The task made before keeps working, and the retired model leaves the lists.
    expect((await as(customer.key).get(`/v1/videos/${task.id}`).expect(200)).body).toMatchObject({ id: task.id, model: 'kling-v3' });
    const listed = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data.map((model: { id: string }) => model.id);
    expect(listed).not.toContain('kling-v3');
    // It has tasks: it can be retired, not deleted.
    const kept = await gw.admin.delete('/api/admin/models/kling-v3').expect(409);
    expect(kept.body.error.message).toContain('has tasks');
  });

  it('CRUD, export and import: a dry run shows the diff and changes nothing; the import applies it; builtin entries the operator changed are kept', async () => {
    const draft = { ...KLING_V3, id: 'kling-draft', label: 'Draft', routes: [{ platform: 'kling', upstream_model: 'kling-v3' }] };
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
    expect((await gw.admin.get('/api/admin/models/kling-v2-6').expect(200)).body.label).toBeNull();
    const again = await gw.admin.post('/api/admin/models/import?dry_run=1', file).expect(200);
    expect(again.body.unchanged).toEqual(expect.arrayContaining(['kling-imported', 'kling-v2-1']));
  });

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
});
