import { startGateway, TestGateway } from './support/gateway';
import { KlingEmulatorServer, startKlingEmulator } from './support/kling-emulator';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { describeOnSqlite } from './support/test-databases';

/**
 * `POST /api/admin/channels/:id/test` on working channels: a probe's "not found" for a made-up task
 * proves the key works; a wrong key fails it, naming the key.
 */
describeOnSqlite('channel Test', (kind) => {
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let runway: RunwayEmulatorServer;

  beforeAll(async () => {
    [gw, kling, runway] = await Promise.all([startGateway(kind, { SIMULATOR: 'on' }), startKlingEmulator(), startRunwayEmulator()]);
  });
  afterAll(async () => {
    await Promise.all([gw?.close(), kling?.close(), runway?.close()]);
  });

  const test = async (id: number) => (await gw.admin.post(`/api/admin/channels/${id}/test`).expect(200)).body;

  it('passes every seeded simulator channel', async () => {
    const channels = (await gw.admin.get('/api/admin/channels').expect(200)).body.data as Array<{ id: number; name: string }>;
    expect(channels.length).toBeGreaterThanOrEqual(8);
    const results = await Promise.all(channels.map(async (channel) => ({ name: channel.name, ...(await test(channel.id)) })));
    expect(results.filter((result) => !result.ok)).toEqual([]);
  });

  it('passes a Kling and a Runway channel against their emulators', async () => {
    const k = await gw.createChannel({
      name: 'kling-probe',
      platform: 'kling',
      base_url: kling.url,
      api_key: kling.apiKey,
      models: ['kling-v2-6'],
    });
    const r = await gw.createChannel({
      name: 'runway-probe',
      platform: 'runway',
      base_url: runway.url,
      api_key: runway.apiKey,
      models: ['gen4_turbo'],
    });
    expect(await test(k)).toMatchObject({ ok: true, method: 'probe' });
    expect(await test(r)).toMatchObject({ ok: true, method: 'probe' });
  });

  it('fails a wrong key, naming the key', async () => {
    const k = await gw.createChannel({
      name: 'kling-wrong',
      platform: 'kling',
      base_url: kling.url,
      api_key: `${kling.accessKey}:not-the-secret`,
      models: ['kling-v2-6'],
    });
    const r = await gw.createChannel({
      name: 'runway-wrong',
      platform: 'runway',
      base_url: runway.url,
      api_key: 'key_wrong',
      models: ['gen4_turbo'],
    });
    for (const id of [k, r]) {
      const result = await test(id);
      expect(result).toMatchObject({ ok: false, method: 'probe' });
      expect(result.error).toMatch(/api key|api_key/i);
    }
  });

  it('fails a base URL that does not lead to the provider, naming the URL', async () => {
    const r = await gw.createChannel({
      name: 'runway-path',
      platform: 'runway',
      base_url: `${runway.url}/nowhere`,
      api_key: runway.apiKey,
      models: ['gen4_turbo'],
    });
    const result = await test(r);
    expect(result).toMatchObject({ ok: false, method: 'probe' });
    expect(result.error).toMatch(/base_url|URL/);
  });
});
