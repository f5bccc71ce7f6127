import { FalEmulatorServer, startFalEmulator } from './support/fal-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { describeEachDatabase, executeOnDatabase, itOnSqliteOnly } from './support/test-databases';

const QUOTA = 1_000_000;
/** kling-v2-5-turbo's builtin list price at 1080p, per second (7 credits). */
const TURBO_1080P = 700;
const FAL_PRO_T2V = 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video';
const BODY = { model: 'kling-v2-5-turbo', prompt: 'a fox in the snow', seconds: '5', size: '1920x1080' };

/**
 * The catalog, living: one entry per model with its other ids as aliases (submitted and charged as
 * the entry, the task keeping the id the client sent), a route on each platform that serves the model
 * (Kling 2.5 Turbo fails over from Kling to fal under one id), retired ids answering 410, and a
 * database the previous release made keeping its operator's changes, prices and tasks. Money, so on
 * every database.
 */
describeEachDatabase('the catalog, living', (kind) => {
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let fal: FalEmulatorServer;
  let customer: { userId: number; key: string };
  /** Set once the last test restarted the gateway on the same database (whose close then leaves it). */
  let restarted = false;

  beforeAll(async () => {
    [kling, fal] = await Promise.all([startKlingEmulator(), startFalEmulator()]);
    gw = await startGateway(kind);
    await gw.createChannel({
      name: 'kling-direct',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: ['kling-v2-5-turbo'],
      priority: 10,
    });
    // As an operator of the previous release listed it: by fal's old id, now an alias of the same entry.
    await gw.createChannel({
      name: 'kling-on-fal',
      platform: 'fal',
      base_url: fal.url,
      api_key: fal.apiKey,
      models: ['fal-kling-v2-5-turbo-pro'],
      priority: 0,
    });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => {
    await gw?.close();
    if (restarted) await gw.database.drop();
    await Promise.all([kling?.close(), fal?.close()]);
  });

  const as = (key: string) => ({
    post: (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body),
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
  });

  it('one entry per model: Kling 2.5 Turbo has routes on kling, fal and replicate, its former ids as aliases, a label and its maker', async () => {
    const turbo = (await gw.admin.get('/api/admin/models/kling-v2-5-turbo').expect(200)).body;
    expect(turbo).toMatchObject({
      label: 'Kling 2.5 Turbo',
      owned_by: 'kling',
      aliases: ['fal-kling-v2-5-turbo-pro', 'replicate-kling-v2-5-turbo-pro'],
      source: 'builtin',
    });
    expect(turbo.routes.map((route: { platform: string }) => route.platform)).toEqual(['kling', 'fal', 'replicate']);
    await gw.admin.get('/api/admin/models/fal-kling-v2-5-turbo-pro').expect(404);
    const all = (await gw.admin.get('/api/admin/models').expect(200)).body.data as Array<{ id: string; label: string | null }>;
    expect(all.filter((entry) => entry.label === null).map((entry) => entry.id)).toEqual([]);
    const veo = (await gw.admin.get('/api/admin/models/veo3.1').expect(200)).body;
    expect(veo).toMatchObject({ owned_by: 'google', aliases: ['fal-veo-3-1'] });

    const models = (await as(customer.key).get('/v1/models').expect(200)).body.data;
    expect(models).toEqual([expect.objectContaining({ id: 'kling-v2-5-turbo', owned_by: 'kling' })]);
    const listed = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: 'kling-v2-5-turbo', aliases: ['fal-kling-v2-5-turbo-pro', 'replicate-kling-v2-5-turbo-pro'] });
  });

  it('an alias quotes and submits exactly as its entry: the same price, charged once; the task keeps the id the client sent', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const alias = { ...BODY, model: 'replicate-kling-v2-5-turbo-pro' };
    const quoted = (await as(key).post('/v1/videos/quote', alias).expect(200)).body;
    const byId = (await as(key).post('/v1/videos/quote', BODY).expect(200)).body;
    expect(quoted).toMatchObject({ model: 'replicate-kling-v2-5-turbo-pro', quota: 5 * TURBO_1080P });
    expect(byId.quota).toBe(quoted.quota);

    const task = (await as(key).post('/v1/videos', alias).expect(200)).body;
    expect(task).toMatchObject({ model: 'replicate-kling-v2-5-turbo-pro', status: 'queued' });
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 5 * TURBO_1080P, used_quota: 5 * TURBO_1080P });
    // Kling's own channel (the higher priority) took it, sent Kling's own model name.
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body;
    expect(tasks.data).toEqual([
      expect.objectContaining({ platform: 'kling', model: 'replicate-kling-v2-5-turbo-pro', upstream_model: 'kling-v2-5-turbo' }),
    ]);
    expect((await as(key).get(`/v1/videos/${task.id}`).expect(200)).body).toMatchObject({ model: 'replicate-kling-v2-5-turbo-pro' });
  });

  it('Kling answers 500: the same id fails over to fal (listed there by its old id), one task and one charge', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    kling.failNextSubmit({ status: 500, code: 5000 });
    const falBefore = fal.submits.length;
    const res = await as(key).post('/v1/videos', BODY).expect(200);
    expect(res.body).toMatchObject({ model: 'kling-v2-5-turbo', status: 'queued' });
    expect(fal.submits).toHaveLength(falBefore + 1);
    expect(fal.submits.at(-1)).toMatchObject({ endpoint: FAL_PRO_T2V, input: { prompt: BODY.prompt, duration: '5' } });
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 5 * TURBO_1080P, used_quota: 5 * TURBO_1080P });
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body;
    expect(tasks.data).toEqual([expect.objectContaining({ platform: 'fal', model: 'kling-v2-5-turbo', upstream_model: FAL_PRO_T2V })]);
  });

  it("a 720p request is never made by fal's 1080p endpoint: with Kling down it is refused, nothing charged", async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    kling.failNextSubmit({ status: 500, code: 5000 });
    const falBefore = fal.submits.length;
    await as(key)
      .post('/v1/videos', { ...BODY, size: '1280x720' })
      .expect(503);
    expect(fal.submits).toHaveLength(falBefore);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  it("an alias that is another entry's id or alias is a 400 naming it, on create, update and import; nothing written", async () => {
    const custom = {
      id: 'my-turbo',
      modes: ['text-to-video'],
      durations: [5],
      resolutions: ['1080p'],
      aspect_ratios: [],
      audio: 'none',
      prices: [{ resolution: '1080p', unit: 'second', price: 100 }],
      routes: [{ platform: 'kling', upstream_model: 'kling-v2-5-turbo' }],
    };
    for (const taken of ['kling-v2-6', 'fal-veo-3-1']) {
      const refused = await gw.admin.post('/api/admin/models', { ...custom, aliases: [taken] }).expect(400);
      expect(refused.body.error).toMatchObject({ param: 'aliases', message: `aliases: ${taken} is already a model id or alias` });
    }
    const asAlias = await gw.admin.post('/api/admin/models', { ...custom, id: 'fal-veo-3-1' }).expect(400);
    expect(asAlias.body.error).toMatchObject({ param: 'id' });
    await gw.admin.get('/api/admin/models/my-turbo').expect(404);

    const made = (
      await gw.admin
        .post('/api/admin/models', { ...custom, aliases: ['my-turbo-old'], owned_by: 'kling', released_at: '2025-09-23' })
        .expect(201)
    ).body;
    expect(made).toMatchObject({ aliases: ['my-turbo-old'], owned_by: 'kling', released_at: '2025-09-23', source: 'custom' });
    const badDate = await gw.admin.patch('/api/admin/models/my-turbo', { released_at: '2025-13-45' }).expect(400);
    expect(badDate.body.error).toMatchObject({ param: 'released_at' });
    const patched = await gw.admin.patch('/api/admin/models/kling-v2-6', { aliases: ['my-turbo-old'] }).expect(400);
    expect(patched.body.error).toMatchObject({ param: 'aliases', message: 'aliases: my-turbo-old is already a model id or alias' });

    const file = (await gw.admin.get('/api/admin/models/export').expect(200)).body;
    const mine = file.models.find((model: { id: string }) => model.id === 'my-turbo');
    expect(mine).toMatchObject({ aliases: ['my-turbo-old'], owned_by: 'kling', released_at: '2025-09-23' });
    const clash = { version: 1, models: [{ ...mine, id: 'my-other', aliases: ['replicate-kling-v2-5-turbo-pro'] }] };
    const imported = await gw.admin.post('/api/admin/models/import?dry_run=true').send(clash).expect(400);
    expect(imported.body.error).toMatchObject({ param: 'models[0].aliases' });
    expect((await gw.admin.post('/api/admin/models/import?dry_run=true').send(file).expect(200)).body.changed).toEqual([]);
  });

  itOnSqliteOnly(kind)(
    'prices that cannot mislead: an unpriced resolution, a price for no model or for a resolution the model lacks are 400s naming each field; customers see only priced resolutions',
    async () => {
      const entry = {
        id: 'priced-once',
        modes: ['text-to-video'],
        durations: [5],
        resolutions: ['720p', '1080p'],
        aspect_ratios: [],
        audio: 'none',
        prices: [{ resolution: '720p', unit: 'second', price: 100 }],
        routes: [{ platform: 'kling', upstream_model: 'kling-v2-5-turbo' }],
      };
      const unpriced = await gw.admin.post('/api/admin/models', entry).expect(400);
      expect(unpriced.body.error).toMatchObject({ param: 'prices', message: expect.stringContaining('1080p has no price') });
      // Every bad field at once, not only the first.
      const several = await gw.admin.post('/api/admin/models', { ...entry, default_duration: 9, replacement: 'nowhere' }).expect(400);
      expect(several.body.error.fields.map((problem: { param: string }) => problem.param)).toEqual([
        'default_duration',
        'prices',
        'replacement',
      ]);
      await gw.admin.get('/api/admin/models/priced-once').expect(404);

      await gw.admin.post('/api/admin/models', { ...entry, resolutions: ['720p'] }).expect(201);
      const noModel = await gw.admin
        .put('/api/admin/prices', { model: 'wan-2.5-fa', resolution: '720p', unit: 'second', price: 5 })
        .expect(400);
      expect(noModel.body.error).toMatchObject({ param: 'model', message: expect.stringContaining('not in the catalog') });
      const noSize = await gw.admin
        .put('/api/admin/prices', { model: 'priced-once', resolution: '4K', unit: 'second', price: 5 })
        .expect(400);
      expect(noSize.body.error).toMatchObject({
        param: 'resolution',
        message: "resolution must be * or one of priced-once's resolutions (720p)",
      });
      const byAlias = await gw.admin.put('/api/admin/prices', {
        model: 'fal-kling-v2-5-turbo-pro',
        resolution: '1080p',
        unit: 'second',
        price: 5,
      });
      expect(byAlias.status).toBe(400);
      expect(byAlias.body.error.message).toContain('price its entry, kling-v2-5-turbo');
      const prices = (await gw.admin.get('/api/admin/prices').expect(200)).body.data as { model: string; id: number; resolution: string }[];
      expect(
        prices.filter((price) => price.model === 'wan-2.5-fa' || (price.model === 'priced-once' && price.resolution === '4k')),
      ).toEqual([]);
      // The last price of a resolution the model lists stays until the resolution goes.
      const only = prices.find((price) => price.model === 'priced-once')!;
      await gw.admin.delete(`/api/admin/prices/${only.id}`).expect(409);

      // A database an older release wrote may hold an entry offering a resolution without a price: customers never see it.
      await gw.createChannel({ name: 'kling-v1', platform: 'kling', base_url: kling.url, api_key: kling.apiKey, models: ['kling-v1-6'] });
      await executeOnDatabase(gw.database, `DELETE FROM price_rules WHERE model = 'kling-v1-6'`);
      await gw.admin.put('/api/admin/prices', { model: 'kling-v1-6', resolution: '1080p', unit: 'second', price: 900 }).expect(200);
      const listed = (await as(customer.key).get('/v1/videos/models').expect(200)).body.data as { id: string; resolutions: string[] }[];
      expect(listed.find((model) => model.id === 'kling-v1-6')?.resolutions).toEqual(['1080p']);
    },
  );

  it('a custom entry used only by its alias has tasks: its delete is a 409, and the task keeps the alias', async () => {
    const entry = {
      id: 'studio-clip',
      aliases: ['studio-clip-2025'],
      modes: ['text-to-video'],
      durations: [5],
      resolutions: ['720p'],
      aspect_ratios: ['16:9'],
      audio: 'none',
      prices: [{ resolution: '720p', unit: 'second', price: 100 }],
      routes: [{ platform: 'kling', upstream_model: 'kling-v2-5-turbo' }],
    };
    await gw.admin.post('/api/admin/models', entry).expect(201);
    // A channel may list the model by its alias.
    await gw.createChannel({
      name: 'kling-studio',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: ['studio-clip-2025'],
    });
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const task = (await as(key).post('/v1/videos', { model: 'studio-clip-2025', prompt: 'p', seconds: '5' }).expect(200)).body;
    expect(task).toMatchObject({ model: 'studio-clip-2025' });
    const refused = await gw.admin.delete('/api/admin/models/studio-clip').expect(409);
    expect(refused.body.error.message).toContain('has tasks');
  });

  it('Sora 2 and the retired Veo ids answer 410 model_retired (naming the replacement where another route serves the model), charged nothing', async () => {
    const channel = { base_url: 'http://127.0.0.1:9', api_key: 'key_retired-test' };
    await gw.createChannel({ ...channel, name: 'openai-main', platform: 'openai', models: ['sora-2', 'sora-2-pro'] });
    await gw.createChannel({ ...channel, name: 'veo-main', platform: 'veo', models: ['veo-3.1-generate-preview', 'veo-3.0-generate-001'] });
    await gw.createChannel({ ...channel, name: 'runway-main', platform: 'runway', models: ['veo3.1'] });
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const retired: Array<[object, string]> = [
      [{ model: 'sora-2', prompt: 'p', seconds: '4' }, 'model sora-2 is retired'],
      [{ model: 'sora-2-pro', prompt: 'p', seconds: '4' }, 'model sora-2-pro is retired'],
      [{ model: 'veo-3.1-generate-preview', prompt: 'p' }, 'model veo-3.1-generate-preview is retired; use veo3.1 instead'],
      [{ model: 'veo-3.0-generate-001', prompt: 'p' }, 'model veo-3.0-generate-001 is retired'],
    ];
    for (const [body, message] of retired) {
      for (const path of ['/v1/videos', '/v1/videos/quote']) {
        const gone = await as(key).post(path, body).expect(410);
        expect(gone.body.error).toMatchObject({ code: 'model_retired', message });
      }
    }
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  it('a database made by the previous release: its separate entries fold into aliases unless the operator changed them; every task keeps its model and price', async () => {
    // A task made under the previous release by fal's old id (here: made now, then the catalog rows set back as that release left them).
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const old = (
      await as(key)
        .post('/v1/videos', { ...BODY, model: 'fal-kling-v2-5-turbo-pro' })
        .expect(200)
    ).body;
    await gw.app.close();
    const db = gw.database;
    await executeOnDatabase(db, 'UPDATE catalog_models SET aliases = NULL, owned_by = NULL, released_at = NULL');
    // The previous release's separate entries: fal's Kling unchanged; fal's Veo 3.1 re-priced by the operator.
    for (const [id, from, modified] of [
      ['fal-kling-v2-5-turbo-pro', 'kling-v2-5-turbo', 0],
      ['fal-veo-3-1', 'veo3.1', 1],
    ] as const) {
      await executeOnDatabase(
        db,
        `INSERT INTO catalog_models (model_id, label, capabilities, routes, status, sunset_at, replacement, source, modified, created_at, updated_at) ` +
          `SELECT '${id}', label, capabilities, routes, status, sunset_at, replacement, source, ${modified}, created_at, updated_at FROM catalog_models WHERE model_id = '${from}'`,
      );
    }
    await executeOnDatabase(
      db,
      "INSERT INTO price_rules (model, resolution, unit, duration, price, audio_price) VALUES ('fal-kling-v2-5-turbo-pro', '1080p', 'second', 0, 700, NULL)",
    );
    await executeOnDatabase(
      db,
      "INSERT INTO price_rules (model, resolution, unit, duration, price, audio_price) VALUES ('fal-veo-3-1', '720p', 'second', 0, 2222, 4444)",
    );
    gw = await startGateway(kind, {}, db);
    restarted = true;

    // Unchanged by the operator: folded into the model's entry, its id an alias.
    await gw.admin.get('/api/admin/models/fal-kling-v2-5-turbo-pro').expect(404);
    expect((await gw.admin.get('/api/admin/models/kling-v2-5-turbo').expect(200)).body).toMatchObject({
      owned_by: 'kling',
      aliases: ['fal-kling-v2-5-turbo-pro', 'replicate-kling-v2-5-turbo-pro'],
    });
    // Changed by the operator: kept as it is, with its price; the release's Veo 3.1 leaves that name to it.
    expect((await gw.admin.get('/api/admin/models/fal-veo-3-1').expect(200)).body).toMatchObject({
      source: 'builtin',
      modified: true,
      prices: [expect.objectContaining({ resolution: '720p', price: 2222 })],
    });
    expect((await gw.admin.get('/api/admin/models/veo3.1').expect(200)).body.aliases).toEqual([]);

    // The old task: its model and price as they were; the old id still quotes and submits at the entry's price.
    const task = (await as(key).get(`/v1/videos/${old.id}`).expect(200)).body;
    expect(task).toMatchObject({ id: old.id, model: 'fal-kling-v2-5-turbo-pro' });
    const admin = (await gw.admin.get(`/api/admin/tasks/${old.id}`).expect(200)).body;
    expect(admin).toMatchObject({ model: 'fal-kling-v2-5-turbo-pro', quota: 5 * TURBO_1080P });
    const quoted = (
      await as(key)
        .post('/v1/videos/quote', { ...BODY, model: 'fal-kling-v2-5-turbo-pro' })
        .expect(200)
    ).body;
    expect(quoted.quota).toBe(5 * TURBO_1080P);
  });
});
