import type { Browser } from 'playwright-core';
import { FAKE_FAMILY } from './medium/support/service-test-module';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { BrowserSession, describeWithBrowser, launchBrowser, openPage } from './support/browser';
import { describeOnSqlite } from './support/test-databases';

interface PlatformSetting {
  name: string;
  type: string;
  default: unknown;
  required: boolean;
  secret: boolean;
  label: { en: string; 'zh-CN': string };
}
interface Platform {
  platform: string;
  label: { en: string; 'zh-CN': string };
  models: string[];
  settings: PlatformSetting[];
}

const settingNames = (platform: Platform) => platform.settings.map((setting) => setting.name);

/**
 * GET /api/admin/platforms lists what the family registry holds; a family registered besides the
 * production ones (FAKE_FAMILY, one definition and its module) shows there and has its channel
 * settings validated, with nothing else changed.
 */
describeOnSqlite('admin API: platforms from the family registry', (kind) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway(kind, {}, undefined, { extraFamilies: [FAKE_FAMILY] });
  });
  afterAll(async () => gw?.close());

  const platforms = async (): Promise<Platform[]> => (await gw.admin.get('/api/admin/platforms').expect(200)).body.data;
  const fakeChannel = (settings?: Record<string, unknown>) => ({
    name: `fake-${kind}`,
    platform: 'fake',
    base_url: 'http://127.0.0.1:9',
    api_key: 'sk-fake',
    models: ['fake-1'],
    ...(settings ? { settings } : {}),
  });

  it('needs the admin token', async () => {
    await gw.http.get('/api/admin/platforms').expect(401);
  });

  it('lists every family with its labels in both languages, models and channel settings (type, default, required, secret)', async () => {
    const data = await platforms();
    expect(data.map((p) => p.platform)).toEqual([
      'alpha',
      'beta',
      'gamma',
      'openai',
      'kling',
      'veo',
      'minimax',
      'runway',
      'vidu',
      'xai',
      'seedance',
      'wan',
      'fal',
      'replicate',
      'fake',
    ]);
    const [alpha, , gamma, openai] = data;
    expect(alpha.label).toEqual({ en: 'alpha (family A)', 'zh-CN': 'alpha（A 系）' });
    expect(openai.label).toEqual({ en: 'openai (family O)', 'zh-CN': 'openai（O 系）' });
    expect(gamma.models).toEqual(expect.arrayContaining(['gamma-2-0', 'gamma-2-0-fast']));
    // Every channel's settings first, the poll interval defaulting to the family's own.
    expect(alpha.settings.find((s) => s.name === 'poll_interval_ms')).toMatchObject({
      type: 'integer',
      default: 4000,
      required: false,
      secret: false,
    });
    expect(settingNames(alpha)).toEqual(['poll_interval_ms', 'max_concurrency', 'usd_per_unit']);
    expect(settingNames(gamma)).toEqual([
      'poll_interval_ms',
      'max_concurrency',
      'usd_per_unit',
      'control_base_url',
      'access_key',
      'secret_key',
      'region',
      'project_name',
    ]);
    expect(gamma.settings.filter((s) => s.secret).map((s) => s.name)).toEqual(['access_key', 'secret_key']);
    expect(gamma.settings.find((s) => s.name === 'control_base_url')).toMatchObject({ type: 'url', default: null, required: false });
    expect(gamma.settings.find((s) => s.name === 'region')).toMatchObject({
      type: 'string',
      default: 'cn-beijing',
      label: { en: 'Region (family C)', 'zh-CN': '区域（C 系）' },
    });
  });

  it('lists a registered test family with its own settings, and validates them where a channel is saved', async () => {
    const fake = (await platforms()).find((p) => p.platform === 'fake')!;
    expect(fake).toMatchObject({ label: { en: 'fake (test family)' }, models: ['fake-1'] });
    expect(fake.settings.slice(3)).toEqual([
      expect.objectContaining({ name: 'workspace', type: 'string', required: true, secret: false, default: null }),
      expect.objectContaining({ name: 'signing_secret', type: 'string', required: false, secret: true }),
      expect.objectContaining({ name: 'retries', type: 'integer', default: 2 }),
    ]);
    const before = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.length;
    const refused: Array<[Record<string, unknown> | undefined, string, string]> = [
      [undefined, 'settings.workspace', 'settings.workspace is required for fake channels'],
      [{ workspace: '' }, 'settings.workspace', 'settings.workspace must be between 1 and 64 characters'],
      [{ workspace: 'w', retries: 'two' }, 'settings.retries', 'settings.retries must be an integer number'],
      [{ workspace: 'w', retries: 9 }, 'settings.retries', 'settings.retries must not be greater than 5'],
      [{ workspace: 42 }, 'settings.workspace', 'settings.workspace must be a string'],
      [
        { workspace: 'w', control_base_url: 'https://example.com' },
        'settings.control_base_url',
        'property control_base_url should not exist',
      ],
    ];
    for (const [settings, param, message] of refused) {
      const res = await gw.admin.post('/api/admin/channels', fakeChannel(settings));
      expect({ settings, status: res.status, error: res.body.error }).toEqual({
        settings,
        status: 400,
        error: expect.objectContaining({ param, message }),
      });
    }
    expect((await gw.admin.get('/api/admin/channels').expect(200)).body.data.length).toBe(before);

    const id = await gw.createChannel(fakeChannel({ workspace: 'studio', signing_secret: 'whsec-fake-signing', retries: 3 }));
    const view = (await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body;
    expect(view.settings).toEqual({ workspace: 'studio', signing_secret: '***', retries: 3 });
    expect(JSON.stringify((await gw.admin.get('/api/admin/channels').expect(200)).body)).not.toContain('whsec-fake-signing');
    const dropped = await gw.admin.patch(`/api/admin/channels/${id}`, { settings: { workspace: null } }).expect(400);
    expect(dropped.body.error).toMatchObject({ param: 'settings.workspace', message: 'settings.workspace is required for fake channels' });
    const changed = await gw.admin.patch(`/api/admin/channels/${id}`, { settings: { retries: 0 } }).expect(200);
    expect(changed.body.settings).toEqual({ workspace: 'studio', signing_secret: '***', retries: 0 });
  });

  it("declares each provider's key format and public base URL, and refuses a key of another shape, naming api_key", async () => {
    const data = await platforms();
    const of = (name: string) => data.find((p) => p.platform === name) as unknown as Record<string, unknown>;
    expect(of('kling')).toMatchObject({
      api_key_format: '<access_key>:<secret_key>',
      default_base_url: 'https://api-singapore.klingai.com',
    });
    expect(of('runway')).toMatchObject({ api_key_format: 'key_…', default_base_url: 'https://api.dev.runwayml.com' });
    expect(of('veo')).toMatchObject({ default_base_url: 'https://generativelanguage.googleapis.com' });
    expect(of('alpha')).toMatchObject({ default_base_url: null });
    const kling = { name: `kling-key-${kind}`, platform: 'kling', base_url: 'http://127.0.0.1:9', models: ['kling-v2-6'] };
    const refused = await gw.admin.post('/api/admin/channels', { ...kling, api_key: 'AKONLYNOSECRET' }).expect(400);
    expect(refused.body.error).toMatchObject({ param: 'api_key', message: 'api_key must be <access_key>:<secret_key> for kling channels' });
    const bearer = await gw.admin
      .post('/api/admin/channels', { ...kling, platform: 'runway', models: ['gen4_turbo'], api_key: 'Bearer key_abc' })
      .expect(400);
    expect(bearer.body.error).toMatchObject({ param: 'api_key' });
    const id = await gw.createChannel({ ...kling, api_key: 'AK:SK' });
    const patched = await gw.admin.patch(`/api/admin/channels/${id}`, { api_key: 'AK' }).expect(400);
    expect(patched.body.error).toMatchObject({ param: 'api_key' });
    await gw.admin.patch(`/api/admin/channels/${id}`, { priority: 2 }).expect(200);
  });

  it("refuses another family's settings on a channel (family C's control plane on an alpha channel)", async () => {
    const alpha = { name: `alpha-${kind}`, platform: 'alpha', base_url: 'http://127.0.0.1:9', api_key: 'sk-a', models: ['alpha/v6'] };
    const res = await gw.admin.post('/api/admin/channels', { ...alpha, settings: { region: 'cn-shanghai' } }).expect(400);
    expect(res.body.error).toMatchObject({ param: 'settings.region', message: 'property region should not exist' });
    const unknown = await gw.admin.post('/api/admin/channels', { ...alpha, platform: 'delta' }).expect(400);
    expect(unknown.body.error).toMatchObject({
      param: 'platform',
      message:
        'platform must be one of the following values: alpha, beta, gamma, openai, kling, veo, minimax, runway, vidu, xai, seedance, wan, fal, replicate, fake',
    });
  });
});

/** The console's channel form draws the platform select, labels and settings fields from the registry: the test family shows with no console change. */
describeWithBrowser('console channel form from the family registry', () => {
  let gw: TestGateway;
  let browser: Browser;
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', {}, undefined, { extraFamilies: [FAKE_FAMILY] }), launchBrowser()]);
  });
  afterAll(async () => {
    await session?.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it('offers the test family, draws its settings and creates its channel, in English and Chinese', async () => {
    session = await openPage(browser, gw.url, { prefix: 'platforms' });
    const { page, context } = session;
    await context.addInitScript(() => localStorage.setItem('console.lang', 'en'));
    expect((await context.request.post('/console/api/session', { data: { admin_token: ADMIN_TOKEN } })).status()).toBe(200);
    await page.goto('/console#/admin/channels');
    await page.getByRole('button', { name: 'New channel' }).click();
    const form = page.getByRole('dialog', { name: 'New channel' });
    const platform = form.getByLabel('Platform');
    expect(await platform.locator('option').allTextContents()).toEqual([
      'alpha (family A)',
      'beta (family B)',
      'gamma (family C)',
      'openai (family O)',
      'Kling',
      'Veo (Gemini API)',
      'MiniMax Hailuo',
      'Runway',
      'Vidu',
      'xAI Grok Imagine',
      'Seedance (BytePlus / Volcengine)',
      'Wan (Alibaba DashScope)',
      'fal',
      'Replicate',
      'fake (test family)',
    ]);
    // A family that declares its provider's host starts a new channel's base URL there.
    await platform.selectOption('fal');
    expect(await form.getByLabel('Base URL').inputValue()).toBe('https://queue.fal.run');
    await platform.selectOption('replicate');
    expect(await form.getByLabel('Base URL').inputValue()).toBe('https://api.replicate.com');
    await expect(form.getByLabel('Region (family C)').count()).resolves.toBe(0);
    // The provider's public base URL is where a new channel starts; its key's shape is the placeholder.
    await platform.selectOption('kling');
    await expect(form.getByLabel('Base URL').inputValue()).resolves.toBe('https://api-singapore.klingai.com');
    await expect(form.getByLabel('Base URL').getAttribute('placeholder')).resolves.toBe('https://api-singapore.klingai.com');
    await expect(form.getByLabel('Provider API key').getAttribute('placeholder')).resolves.toBe('<access_key>:<secret_key>');
    await platform.selectOption('runway');
    await expect(form.getByLabel('Base URL').inputValue()).resolves.toBe('https://api.dev.runwayml.com');
    await session.screenshot('new-channel-runway');
    await platform.selectOption('gamma');
    await form.getByLabel('Region (family C)').waitFor();
    // A family that declares its provider's host has it filled in; one that does not, an empty field.
    await platform.selectOption('vidu');
    expect(await form.getByLabel('Base URL').inputValue()).toBe('https://api.vidu.com');
    await platform.selectOption('fake');
    expect(await form.getByLabel('Base URL').inputValue()).toBe('');
    await form.getByLabel('Workspace').fill('studio');
    await form.getByLabel('Signing secret').fill('whsec-from-the-form');
    await form.getByLabel('Name').fill('fake-from-form');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9');
    await form.getByLabel('Provider API key').fill('sk-form');
    // Its models are the catalog's models routed on it (the test family's builtin entry).
    await form.getByRole('checkbox', { name: 'fake-1' }).check();
    await form.getByRole('button', { name: 'Create channel' }).click();
    await page.locator('[data-channel-id]', { hasText: 'fake-from-form' }).waitFor();
    await page.locator('[data-channel-id]', { hasText: 'fake (test family)' }).waitFor();
    const created = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find(
      (c: { name: string }) => c.name === 'fake-from-form',
    );
    expect(created).toMatchObject({ platform: 'fake', settings: { workspace: 'studio', signing_secret: '***' } });

    // The label in the console's language: the registry's Chinese one after a switch.
    await context.addInitScript(() => localStorage.setItem('console.lang', 'zh-CN'));
    await page.reload();
    await page.locator('[data-channel-id]', { hasText: 'fake（测试系）' }).waitFor();
  });
});
