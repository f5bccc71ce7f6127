import { startGateway, TestGateway } from './support/gateway';
import { GammaEmulatorServer, startGammaEmulator } from './support/gamma-emulator';
import { describeEachDatabase, describeOnSqlite, itOnSqliteOnly } from './support/test-databases';

/** The admin API exactly as the product contract names it: paths, fields, status codes, errors. */
describeEachDatabase('admin API', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;

  beforeAll(async () => {
    fake = await startGammaEmulator();
    gw = await startGateway(kind);
    fake.now = () => gw.clock.now();
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const asCustomer = (key: string) => ({
    get: (path: string) => gw.http.get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body),
  });

  it('creates users with the defaults and changes group, status and verification approval at once', async () => {
    const created = await gw.admin.post('/api/admin/users', { username: `carol_${kind}` }).expect(201);
    expect(created.body).toEqual({ id: expect.any(Number), username: `carol_${kind}`, group: 'default', quota: 0, used_quota: 0 });
    const id = created.body.id;
    expect((await gw.admin.get(`/api/admin/logs?user_id=${id}`).expect(200)).body).toMatchObject({ data: [], total: 0 });
    const read = await gw.admin.get(`/api/admin/users/${id}`).expect(200);
    expect(read.body).toMatchObject({
      id,
      username: `carol_${kind}`,
      group: 'default',
      quota: 0,
      used_quota: 0,
      status: 'active',
      verification_enabled: false,
    });

    const key = (await gw.admin.post(`/api/admin/users/${id}/keys`, { name: 'ops' }).expect(201)).body.key;
    const customer = asCustomer(key);
    // verification_enabled is the admin approval: it opens and closes the verification endpoints on the next request.
    await customer.get('/v1/verification/groups').expect(403);
    const approved = await gw.admin.patch(`/api/admin/users/${id}`, { verification_enabled: true, group: 'vip' }).expect(200);
    expect(approved.body).toMatchObject({ id, group: 'vip', status: 'active', verification_enabled: true });
    expect((await customer.get('/v1/verification/groups').expect(200)).body).toEqual({ data: [] });
    await gw.admin.patch(`/api/admin/users/${id}`, { verification_enabled: false }).expect(200);
    await customer.get('/v1/verification/groups').expect(403);

    const disabled = await gw.admin.patch(`/api/admin/users/${id}`, { status: 'disabled' }).expect(200);
    expect(disabled.body.status).toBe('disabled');
    expect((await customer.get('/v1/verification/applications').expect(401)).body.error.message).toBe('account is disabled');
    await gw.admin.patch(`/api/admin/users/${id}`, { status: 'active' }).expect(200);
    await customer.get('/v1/verification/applications').expect(200);

    const badStatus = await gw.admin.patch(`/api/admin/users/${id}`, { status: 'gone' }).expect(400);
    expect(badStatus.body.error).toMatchObject({
      param: 'status',
      message: 'status must be one of the following values: active, disabled',
    });
    const badFlag = await gw.admin.patch(`/api/admin/users/${id}`, { verification_enabled: 'yes' }).expect(400);
    expect(badFlag.body.error.param).toBe('verification_enabled');
    // null is no value of any field's type: a 400 naming the field, never a NOT NULL failure (500).
    for (const field of ['group', 'status', 'verification_enabled']) {
      expect((await gw.admin.patch(`/api/admin/users/${id}`, { [field]: null }).expect(400)).body.error.param).toBe(field);
    }
    expect((await gw.admin.post('/api/admin/users', { username: `nulls_${kind}`, group: null }).expect(400)).body.error.param).toBe(
      'group',
    );
    expect(
      (
        await gw.admin
          .put('/api/admin/prices', { model: 'alpha/v6', resolution: '720p', unit: 'second', price: 1, duration: null })
          .expect(400)
      ).body.error.param,
    ).toBe('duration');
    expect((await gw.admin.patch('/api/admin/users/999999', { group: 'x' }).expect(404)).body.error).toMatchObject({
      code: 'not_found',
      message: 'user 999999 not found',
    });
    for (const path of ['/api/admin/users/not-a-number', '/api/admin/channels/1.5', '/api/admin/users/x/keys']) {
      expect((await gw.admin.get(path).expect(400)).body.error).toMatchObject({ param: 'id', message: 'id must be an integer' });
    }
  });

  it('tops up with a positive integer only and writes one topup log in the contract shape', async () => {
    const { id } = (await gw.admin.post('/api/admin/users', { username: `dave_${kind}`, quota: 100 }).expect(201)).body;
    const topped = await gw.admin.post(`/api/admin/users/${id}/topup`, { quota: 250 }).expect(200);
    expect(topped.body).toEqual({ id, quota: 350 });
    const logs = await gw.admin.get(`/api/admin/logs?user_id=${id}&type=topup`).expect(200);
    expect(logs.body.total).toBe(2);
    expect(logs.body.data[0]).toEqual({
      id: expect.any(Number),
      type: 'topup',
      user_id: id,
      task_id: null,
      model: null,
      quota: 250,
      balance_after: 350,
      channel_id: null,
      detail: expect.any(String),
      // The console translates the detail from its code and parameters.
      detail_code: 'top_up_by_admin',
      detail_params: {},
      created_at: expect.any(Number),
    });
    for (const [quota, message] of [
      ['5', 'quota must be an integer number'],
      [1.5, 'quota must be an integer number'],
      [0, 'quota must not be less than 1'],
      [-3, 'quota must not be less than 1'],
      [undefined, 'quota must be an integer number'],
    ] as const) {
      const res = await gw.admin.post(`/api/admin/users/${id}/topup`, { quota }).expect(400);
      expect({ quota, error: res.body.error }).toEqual({
        quota,
        error: { message, param: 'quota', type: 'invalid_request_error', code: 'invalid_request', constraint: expect.any(String) },
      });
    }
    expect(await gw.balance(id)).toEqual({ quota: 350, used_quota: 0 });
  });

  it('issues keys (201, shown once, allowlist enforced) and 404s an unknown user', async () => {
    const { id } = (await gw.admin.post('/api/admin/users', { username: `erin_${kind}`, quota: 10_000 }).expect(201)).body;
    const issued = await gw.admin.post(`/api/admin/users/${id}/keys`, { name: 'ci', models: ['gamma-2-0'] }).expect(201);
    expect(issued.body).toMatchObject({ id: expect.any(Number), name: 'ci', key: expect.stringMatching(/^sk-[A-Za-z0-9]{32,}$/) });
    const listed = await gw.admin.get(`/api/admin/users/${id}/keys`).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.key);
    const refused = await asCustomer(issued.body.key).post('/v1/video/generations', { model: 'gamma-2-0-fast', prompt: 'x' }).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', data: null });
    expect((await gw.admin.post(`/api/admin/users/${id}/keys`, {}).expect(400)).body.error).toMatchObject({
      param: 'name',
      message: 'name must be a string',
    });
    expect((await gw.admin.post('/api/admin/users/999999/keys', { name: 'x' }).expect(404)).body.error.message).toBe(
      'user 999999 not found',
    );
  });

  itOnSqliteOnly(kind)('creates channels (201 {id}) and refuses bad input field by field, creating nothing', async () => {
    const before = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.length;
    const good = fake.channelBody({ name: `gamma-${kind}`, model_mapping: { 'gamma-2-0': 'gamma-2-0-250101' } });
    const cases: Array<[string, Record<string, unknown>, string, string?]> = [
      ['platform', { platform: 'delta' }, 'platform'],
      ['base_url', { base_url: 'not a url' }, 'base_url', 'base_url must be an http(s) URL'],
      ['no models', { models: [] }, 'models'],
      [
        'another family',
        { models: ['gamma-2-0', 'alpha/v6'] },
        'models',
        'models: alpha/v6 has no route on gamma (it is routed on alpha); add one to its catalog entry',
      ],
      [
        'mapping',
        { model_mapping: { 'gamma-2-0': 5 } },
        'model_mapping',
        'model_mapping must map public model ids to upstream model names (non-empty strings)',
      ],
      [
        'poll interval',
        { settings: { poll_interval_ms: 'fast' } },
        'settings.poll_interval_ms',
        'settings.poll_interval_ms must be an integer number',
      ],
      ['concurrency', { settings: { max_concurrency: 0 } }, 'settings.max_concurrency', 'settings.max_concurrency must not be less than 1'],
      ['unknown setting', { settings: { poll_interval: 5000 } }, 'settings.poll_interval', 'property poll_interval should not exist'],
      [
        'half a control plane',
        { settings: { control_base_url: `${fake.url}/control`, access_key: 'AK' } },
        'settings.secret_key',
        'settings.secret_key is required with settings.control_base_url and settings.access_key (the family C control plane needs all three)',
      ],
      [
        'control url',
        { settings: { control_base_url: 'ftp://x', access_key: 'AK', secret_key: 'SK' } },
        'settings.control_base_url',
        'settings.control_base_url must be an http(s) URL',
      ],
    ];
    for (const [label, change, param, message] of cases) {
      const res = await gw.admin.post('/api/admin/channels', { ...good, ...change });
      expect({ label, status: res.status, param: res.body.error?.param }).toEqual({ label, status: 400, param });
      if (message) expect(res.body.error.message).toBe(message);
    }
    expect((await gw.admin.get('/api/admin/channels').expect(200)).body.data.length).toBe(before);

    const created = await gw.admin.post('/api/admin/channels', good).expect(201);
    expect(created.body).toEqual({ id: expect.any(Number) });
    const view = (await gw.admin.get(`/api/admin/channels/${created.body.id}`).expect(200)).body;
    expect(view).toMatchObject({
      platform: 'gamma',
      models: ['gamma-2-0', 'gamma-2-0-fast'],
      model_mapping: { 'gamma-2-0': 'gamma-2-0-250101' },
    });
    expect(view.settings).toEqual({
      control_base_url: `${fake.url}/control`,
      access_key: '***',
      secret_key: '***',
      poll_interval_ms: 1000,
    });
  });

  it('merges channel changes and keeps the rules for the channel as it will be', async () => {
    const id = await gw.createChannel(fake.channelBody({ name: `merge-${kind}` }));
    const changed = await gw.admin
      .patch(`/api/admin/channels/${id}`, { settings: { poll_interval_ms: 2500, region: 'cn-shanghai' } })
      .expect(200);
    expect(changed.body.settings).toEqual({
      control_base_url: `${fake.url}/control`,
      access_key: '***',
      secret_key: '***',
      poll_interval_ms: 2500,
      region: 'cn-shanghai',
    });
    const halved = await gw.admin.patch(`/api/admin/channels/${id}`, { settings: { secret_key: null } }).expect(400);
    expect(halved.body.error.param).toBe('settings.secret_key');
    const foreign = await gw.admin.patch(`/api/admin/channels/${id}`, { models: ['beta-1.0-t2v'] }).expect(400);
    expect(foreign.body.error.param).toBe('models');
    expect((await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body).toMatchObject({
      models: ['gamma-2-0', 'gamma-2-0-fast'],
      settings: { secret_key: '***' },
    });
    await gw.admin.patch('/api/admin/channels/999999', { name: 'x' }).expect(404);
    await gw.admin.get('/api/admin/channels/999999').expect(404);
  });

  it('lists tasks and logs with the contract filters and paging', async () => {
    // Text-only family C tasks need no verification: a plain customer and the fake provider will do.
    await gw.createChannel(fake.channelBody({ name: `tasks-${kind}` }));
    const first = await gw.createCustomer({ quota: 1_000_000 });
    const second = await gw.createCustomer({ quota: 1_000_000 });
    const submit = async (key: string, model: string) =>
      (
        await asCustomer(key)
          .post('/v1/video/generations', { model, prompt: 'a lighthouse', duration: 4, metadata: { resolution: '480p' } })
          .expect(200)
      ).body.id as string;
    const older = await submit(first.key, 'gamma-2-0');
    const fast = await submit(first.key, 'gamma-2-0-fast');
    const newest = await submit(first.key, 'gamma-2-0');
    await submit(second.key, 'gamma-2-0');
    // A failure of the client's input: refunded, never retried on another channel (TASK_PROVIDER_RETRIES).
    await fake.setTask(fake.taskIds().at(-3)!, { status: 'failed', error: { code: 'InvalidParameter', message: 'boom' } });
    gw.clock.advance(10_000);
    await gw.sync();

    const tasks = (query: string) => gw.admin.get(`/api/admin/tasks?user_id=${first.userId}${query}`).expect(200);
    const all = (await tasks('')).body;
    expect(all.total).toBe(3);
    expect(all.data.map((task: { task_id: string }) => task.task_id)).toEqual([newest, fast, older]);
    expect(all.data[1]).toMatchObject({
      task_id: fast,
      user_id: first.userId,
      model: 'gamma-2-0-fast',
      platform: 'gamma',
      status: 'FAILURE',
      flat_status: 'failed',
    });
    expect((await tasks('&model=gamma-2-0-fast')).body.data.map((t: { task_id: string }) => t.task_id)).toEqual([fast]);
    for (const status of ['failed', 'FAILURE']) expect((await tasks(`&status=${status}`)).body.total).toBe(1);
    // The flat `queued` covers the unified NOT_START and QUEUED (queued upstream, as these two are now).
    for (const [status, total] of [
      ['queued', 2],
      ['QUEUED', 2],
      ['NOT_START', 0],
    ] as const)
      expect((await tasks(`&status=${status}`)).body.total).toBe(total);
    const page = (await tasks('&page=2&page_size=2')).body;
    expect(page).toMatchObject({ total: 3, data: [expect.objectContaining({ task_id: older })] });
    expect((await gw.admin.get('/api/admin/tasks?status=done').expect(400)).body.error.param).toBe('status');

    const logs = (query: string) => gw.admin.get(`/api/admin/logs?user_id=${first.userId}${query}`).expect(200);
    expect((await logs('&type=consume')).body.total).toBe(3);
    const refund = (await logs(`&type=refund&task_id=${fast}`)).body;
    expect(refund).toMatchObject({
      total: 1,
      data: [
        {
          type: 'refund',
          task_id: fast,
          model: 'gamma-2-0-fast',
          quota: 4 * 300,
          detail: expect.stringContaining('generation failed: InvalidParameter'),
        },
      ],
    });
    const paged = (await logs('&page=2&page_size=3')).body;
    expect(paged.total).toBe(5); // opening top-up, three charges, one refund
    expect(paged.data).toHaveLength(2);
    expect((await gw.admin.get('/api/admin/logs?page_size=500').expect(400)).body.error.param).toBe('page_size');
  });

  itOnSqliteOnly(kind)('documents the admin API responses in Swagger with the contract names', async () => {
    const docs = (await gw.http.get('/docs-json').expect(200)).body;
    const schemaOf = (path: string, method: string, status: string) => {
      const ref: string = docs.paths[path][method].responses[status].content['application/json'].schema.$ref;
      return docs.components.schemas[ref.split('/').pop()!];
    };
    expect(Object.keys(schemaOf('/api/admin/users', 'post', '201').properties)).toEqual(['id', 'username', 'group', 'quota', 'used_quota']);
    expect(Object.keys(schemaOf('/api/admin/users/{id}', 'get', '200').properties)).toEqual(
      expect.arrayContaining(['id', 'username', 'group', 'quota', 'used_quota', 'status', 'verification_enabled']),
    );
    expect(Object.keys(schemaOf('/api/admin/users/{id}/topup', 'post', '200').properties)).toEqual(['id', 'quota']);
    expect(Object.keys(schemaOf('/api/admin/users/{id}/keys', 'post', '201').properties)).toEqual(
      expect.arrayContaining(['id', 'name', 'key']),
    );
    expect(Object.keys(schemaOf('/api/admin/channels', 'post', '201').properties)).toEqual(['id']);
    const logList = schemaOf('/api/admin/logs', 'get', '200');
    expect(Object.keys(logList.properties)).toEqual(expect.arrayContaining(['data', 'total']));
    const log = docs.components.schemas[logList.properties.data.items.$ref.split('/').pop()];
    expect(Object.keys(log.properties)).toEqual([
      'id',
      'type',
      'user_id',
      'task_id',
      'model',
      'quota',
      'balance_after',
      'channel_id',
      'detail',
      'detail_code',
      'detail_params',
      'created_at',
    ]);
    expect(log.properties.type.enum).toEqual(['topup', 'consume', 'refund', 'adjust', 'hold', 'release', 'refused']);
    expect(Object.keys(schemaOf('/api/admin/tasks', 'get', '200').properties)).toEqual(expect.arrayContaining(['data', 'total']));
    const settings = docs.components.schemas.ChannelSettingsDto.properties;
    expect(Object.keys(settings)).toEqual([
      'poll_interval_ms',
      'max_concurrency',
      'usd_per_unit',
      'control_base_url',
      'access_key',
      'secret_key',
      'region',
      'project_name',
      // Providers that push: off for a channel with `false`; fal's signing keys.
      'push',
      'webhook_jwks_url',
    ]);
  });
});

describeOnSqlite('admin API: channel URLs on private hosts', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, { MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
  });
  afterAll(async () => gw?.close());

  it('refuses loopback and private channel URLs unless MEDIA_ALLOW_PRIVATE_HOSTS=true', async () => {
    const body = { name: 'c', platform: 'gamma', base_url: 'https://93.184.216.34', api_key: 'k', models: ['gamma-2-0'] };
    const message = (field: string) =>
      `${field} must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)`;
    const loopback = await gw.admin.post('/api/admin/channels', { ...body, base_url: 'http://127.0.0.1:8080' }).expect(400);
    expect(loopback.body.error).toMatchObject({ param: 'base_url', message: message('base_url') });
    const control = { control_base_url: 'http://10.0.0.7/control', access_key: 'AK', secret_key: 'SK' };
    const privateControl = await gw.admin.post('/api/admin/channels', { ...body, settings: control }).expect(400);
    expect(privateControl.body.error).toMatchObject({ param: 'settings.control_base_url', message: message('settings.control_base_url') });
    const id = (await gw.admin.post('/api/admin/channels', body).expect(201)).body.id;
    const patched = await gw.admin.patch(`/api/admin/channels/${id}`, { base_url: 'http://169.254.169.254' }).expect(400);
    expect(patched.body.error.param).toBe('base_url');
    expect((await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.base_url).toBe('https://93.184.216.34');
  });
});

describeOnSqlite('admin API: channel poll interval', (kind) => {
  let gw: TestGateway;
  let fake: GammaEmulatorServer;
  beforeAll(async () => {
    fake = await startGammaEmulator();
    gw = await startGateway(kind);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it('polls family C every 10 s by default, and as often as settings.poll_interval_ms says once set', async () => {
    const body = fake.channelBody();
    const id = await gw.createChannel({ ...body, settings: { ...(body.settings as object), poll_interval_ms: undefined } });
    const { key } = await gw.createCustomer({ quota: 100_000 });
    await gw.http
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gamma-2-0', prompt: 'p', metadata: { resolution: '480p' } })
      .expect(200);
    const queries = () => fake.requests.filter((req) => req.method === 'GET').length;
    gw.clock.advance(9_000);
    await gw.sync();
    expect(queries()).toBe(0);
    gw.clock.advance(1_100);
    await gw.sync();
    expect(queries()).toBe(1);

    await gw.admin.patch(`/api/admin/channels/${id}`, { settings: { poll_interval_ms: 3_000 } }).expect(200);
    gw.clock.advance(10_000); // the poll already booked at the old interval
    await gw.sync();
    expect(queries()).toBe(2);
    gw.clock.advance(3_100);
    await gw.sync();
    expect(queries()).toBe(3);
  });
});
