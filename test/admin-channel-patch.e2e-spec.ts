import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';

/**
 * Without MEDIA_ALLOW_PRIVATE_HOSTS the simulator's seeded channels sit on a loopback base_url the
 * admin API would refuse for any other host: a PATCH checks only the URLs it changes, and the gateway's own
 * simulator is accepted, so the console's form saves them.
 */
describeEachDatabase('admin API: a channel PATCH checks only what it changes', (kind) => {
  let gw: TestGateway;
  let seeded: Array<{ id: number; platform: string; base_url: string }>;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    seeded = (await gw.admin.get('/api/admin/channels').expect(200)).body.data;
  });
  afterAll(async () => gw?.close());

  it("edits a seeded simulator channel's settings and name, its loopback base_url untouched", async () => {
    expect(seeded.length).toBeGreaterThan(0);
    for (const channel of seeded) {
      expect(channel.base_url.startsWith(`${gw.url}/simulator/`)).toBe(true);
      const res = await gw.admin.patch(`/api/admin/channels/${channel.id}`, { settings: { poll_interval_ms: null } });
      expect({ id: channel.id, status: res.status, base_url: res.body.base_url }).toEqual({
        id: channel.id,
        status: 200,
        base_url: channel.base_url,
      });
      await gw.admin.patch(`/api/admin/channels/${channel.id}`, { name: `renamed-${channel.id}` }).expect(200);
    }
  });

  itOnSqliteOnly(kind)("saves a seeded channel as the console's form sends it: every field back, its URLs unchanged", async () => {
    for (const channel of seeded) {
      const full = (await gw.admin.get(`/api/admin/channels/${channel.id}`).expect(200)).body;
      const form = { name: full.name, base_url: `${full.base_url}/`, models: full.models, settings: full.settings, priority: 3 };
      const res = await gw.admin.patch(`/api/admin/channels/${channel.id}`, form);
      expect({ platform: channel.platform, status: res.status, priority: res.body.priority }).toEqual({
        platform: channel.platform,
        status: 200,
        priority: 3,
      });
    }
  });

  itOnSqliteOnly(kind)("adds a channel on the gateway's own simulator, but no other loopback URL, and says how to allow one", async () => {
    const body = { name: 'second alpha', platform: 'alpha', api_key: 'sim-key', models: ['alpha/v5'] };
    await gw.admin.post('/api/admin/channels', { ...body, base_url: `${gw.url}/simulator/alpha` }).expect(201);
    const refused = await gw.admin.post('/api/admin/channels', { ...body, base_url: 'http://127.0.0.1:9/alpha' }).expect(400);
    expect(refused.body.error).toMatchObject({ param: 'base_url', message: expect.stringContaining('MEDIA_ALLOW_PRIVATE_HOSTS=true') });
  });

  itOnSqliteOnly(kind)(
    "checks a new channel's key format before its host: a malformed Runway key on a host that cannot resolve names api_key",
    async () => {
      const body = { name: 'runway-typo', platform: 'runway', models: ['gen4.5'], base_url: 'https://no-such-host.invalid' };
      const refused = await gw.admin.post('/api/admin/channels', { ...body, api_key: 'Bearer key_abc' }).expect(400);
      expect(refused.body.error).toMatchObject({ param: 'api_key', constraint: 'apiKeyFormat' });
      // A well-formed key reaches the host check, which says what it found.
      const unresolved = await gw.admin.post('/api/admin/channels', { ...body, api_key: `key_${'a'.repeat(128)}` }).expect(400);
      expect(unresolved.body.error).toMatchObject({ param: 'base_url', constraint: 'resolvableHost' });
    },
  );

  it('still refuses a private URL the PATCH sends, naming that field, and changes nothing', async () => {
    const gamma = seeded.find((channel) => channel.platform === 'gamma')!;
    const before = (await gw.admin.get(`/api/admin/channels/${gamma.id}`).expect(200)).body;
    const control = await gw.admin
      .patch(`/api/admin/channels/${gamma.id}`, { settings: { region: 'cn-beijing', control_base_url: 'http://10.0.0.7/control' } })
      .expect(400);
    expect(control.body.error.param).toBe('settings.control_base_url');
    const base = await gw.admin.patch(`/api/admin/channels/${gamma.id}`, { base_url: 'http://127.0.0.1:8080', name: 'moved' }).expect(400);
    expect(base.body.error.param).toBe('base_url');
    expect((await gw.admin.get(`/api/admin/channels/${gamma.id}`).expect(200)).body).toEqual(before);
  });
});
