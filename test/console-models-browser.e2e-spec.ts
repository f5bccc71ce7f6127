import type { Browser, Locator } from 'playwright-core';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  expectText,
  horizontalOverflow,
  launchBrowser,
  openPage,
  realErrors,
  signInByRequest,
} from './support/browser';

interface Entry {
  id: string;
  label: string | null;
  status: string;
  source: string;
  modified: boolean;
  sunset_at: number | null;
  replacement: string | null;
  [field: string]: unknown;
}

/**
 * The console's Models page in headless Chromium against the gateway with its embedded simulator: an operator
 * adds kling-v3-1 (3 to 15 s, per-second prices at 720p and 1080p, a Kling route) through the form, sees each
 * 400 beside the form naming its field, lists the model on the Kling channel by picking it from the catalog,
 * imports a catalog file after its dry run's diff, and walks a model through its life (deprecate, retire,
 * delete). Every step is checked twice: what the page shows, and what the admin API answers afterwards.
 */
describeWithBrowser('console Models page in a browser', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  let customer: { userId: number; key: string };

  async function open(
    options: { lang?: string; viewport?: { width: number; height: number }; suffix?: string } = {},
  ): Promise<BrowserSession> {
    const { lang = 'en', viewport = { width: 1440, height: 900 } } = options;
    const session = await openPage(browser, gw.url, { prefix: 'models', viewport, suffix: options.suffix });
    sessions.push(session);
    await session.context.addInitScript((l) => {
      localStorage.setItem('console.lang', l);
      localStorage.setItem('console.theme', 'light');
    }, lang);
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    return session;
  }
  const entry = async (id: string): Promise<Entry> => (await gw.admin.get(`/api/admin/models/${encodeURIComponent(id)}`).expect(200)).body;
  const klingChannel = async (): Promise<{ id: number; models: string[] }> =>
    (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find((c: { platform: string }) => c.platform === 'kling');
  /** The page's errors are only the refusals the test asked for (the browser logs each 4xx answer). */
  const onlyRefusals = (session: BrowserSession, status: number, count: number) =>
    expect(realErrors(session)).toEqual(Array.from({ length: count }, () => expect.stringContaining(`status of ${status}`)));
  /** The form's control a field path names (the form names its controls as the API names its fields). */
  const control = (form: Locator, name: string) => form.locator(`[name="${name}"]`);

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
    customer = await gw.createCustomer({ quota: 5_000_000, username: 'models_studio' });
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it('adds kling-v3-1 on the Models page, each 400 shown beside the form naming its field, and sees it listed', async () => {
    const session = await open();
    const { page } = session;
    await page.goto('/console#/admin/models');
    await page.getByRole('link', { name: 'Models' }).waitFor();
    await page.locator('[data-model-id="kling-v2-6"]').waitFor();
    await page.getByRole('button', { name: 'Add model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add model' });
    const form = dialog.locator('#model-form');
    await form.getByLabel('Model id').fill('kling-v3-1');
    await form.getByLabel('Display name').fill('Kling 3.1');
    await form.getByLabel('Other ids').fill('kling-3-1');
    await form.getByLabel('Maker').fill('kling');
    await form.getByLabel('Released').fill('2026-02-05');
    await form.getByRole('checkbox', { name: 'Image to video' }).check();
    await form.getByLabel('Durations').selectOption('range');
    await form.getByLabel('From (s)').fill('3');
    await form.getByLabel('To (s)').fill('15');
    await form.getByLabel('Default length (s)').fill('5');
    await form.getByLabel('Resolutions').fill('720p, 1080p');
    await form.getByLabel('Aspect ratios').fill('16:9, 9:16, 1:1');
    const firstPrice = form.locator('[data-price-row="0"]');
    await firstPrice.getByLabel('Resolution').fill('720p');
    await firstPrice.getByLabel('Price', { exact: true }).fill('100');
    await form.getByRole('button', { name: 'Add a price' }).click();
    const secondPrice = form.locator('[data-price-row="1"]');
    // A resolution the model does not have: the API's 400 names prices[1].resolution.
    await secondPrice.getByLabel('Resolution').fill('4k');
    await secondPrice.getByLabel('Price', { exact: true }).fill('150');
    const route = form.locator('[data-route-row="0"]');
    await route.getByLabel('Platform').selectOption('kling');
    await route.getByLabel('Upstream model').fill('kling-v3-1');
    // Typed values survive the form drawing itself again (a row added after them).
    expect(await firstPrice.getByLabel('Price', { exact: true }).inputValue()).toBe('100');

    const save = form.getByRole('button', { name: 'Add model' });
    const alert = form.getByRole('alert');
    await save.click();
    await expectText(alert, 'Check prices[1].resolution: prices[1].resolution must be * or one of resolutions (720p, 1080p)');
    expect(await control(form, 'prices[1].resolution').getAttribute('aria-invalid')).toBe('true');
    expect(await control(form, 'prices[1].resolution').evaluate((el) => el === document.activeElement)).toBe(true);
    await session.screenshot('en-desktop-form-error', { fullPage: false });

    // Kling's route options are a form of their own (its one switch); raw JSON is the exception, asked for.
    await route.getByRole('checkbox', { name: 'Takes cfg_scale' }).waitFor();
    await expect(route.getByLabel('Options (JSON)').count()).resolves.toBe(0);
    // A route option Kling does not take: the family's own check, named down to the option.
    await secondPrice.getByLabel('Resolution').fill('1080p');
    await route.getByRole('checkbox', { name: 'Edit the options as JSON' }).check();
    await route.getByLabel('Options (JSON)').fill('{"seed": 7}');
    await save.click();
    await expectText(alert, 'Check routes[0].options.seed: routes[0].options.seed is not a Kling route option (cfg_scale and omni are)');
    expect(await control(form, 'routes[0].options').getAttribute('aria-invalid')).toBe('true');
    expect(await control(form, 'prices[1].resolution').getAttribute('aria-invalid')).toBeNull();
    // JSON the form cannot read is named the same way, before any call.
    await route.getByLabel('Options (JSON)').fill('{cfg_scale: true');
    await save.click();
    await expectText(alert, 'Check routes[0].options: routes[0].options is not valid JSON');
    await gw.admin.get('/api/admin/models/kling-v3-1').expect(404);

    await route.getByLabel('Options (JSON)').fill('');
    await save.click();
    await page.getByText('Model kling-v3-1 added.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator('[data-model-id="kling-v3-1"]');
    await expectText(
      row,
      /kling-v3-1.*Kling 3\.1.*Custom.*Active.*Kling.*Text to video.*Image to video.*3–15 s.*default 5 s.*720p: 100 \/ s.*1080p: 150 \/ s/,
    );
    expect(await entry('kling-v3-1')).toEqual({
      id: 'kling-v3-1',
      label: 'Kling 3.1',
      aliases: ['kling-3-1'],
      owned_by: 'kling',
      released_at: '2026-02-05',
      modes: ['text-to-video', 'image-to-video'],
      durations: { min: 3, max: 15 },
      default_duration: 5,
      resolutions: ['720p', '1080p'],
      aspect_ratios: ['16:9', '9:16', '1:1'],
      audio: 'none',
      max_reference_images: null,
      prompt_max_length: null,
      prices: expect.arrayContaining([
        { resolution: '720p', unit: 'second', price: 100, audio_price: null },
        { resolution: '1080p', unit: 'second', price: 150, audio_price: null },
      ]),
      routes: [{ platform: 'kling', upstream_model: 'kling-v3-1' }],
      status: 'active',
      sunset_at: null,
      replacement: null,
      source: 'custom',
      modified: false,
    });

    // The filters live in the URL and ask the API: only Kling's models, then only deprecated ones (none yet).
    await page.getByLabel('Platform').selectOption('kling');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-model-id]')].every((r) => /Kling/.test(r.textContent ?? '')));
    expect(page.url()).toContain('platform=kling');
    const kling = (await gw.admin.get('/api/admin/models?platform=kling').expect(200)).body.data.map((m: Entry) => m.id);
    expect(await page.locator('[data-model-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model-id')))).toEqual(kling);
    await page.getByLabel('Status').selectOption('deprecated');
    await page.getByText('No model matches these filters.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await row.waitFor();
    expect(await auditAccessibility(page)).toEqual([]);
    onlyRefusals(session, 400, 2);
  });

  it('lists kling-v3-1 on the Kling channel by picking it from the catalog, and a customer can then use it', async () => {
    const before = await klingChannel();
    expect(before.models).not.toContain('kling-v3-1');
    const session = await open();
    const { page } = session;
    await page.goto('/console#/admin/channels');
    await page.getByRole('button', { name: 'Edit simulator-kling' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit simulator-kling' });
    const picker = dialog.locator('fieldset.model-picker');
    await picker.getByRole('checkbox', { name: 'kling-v3-1' }).waitFor();
    // Only the catalog's models routed on Kling, those the channel lists already checked.
    const offered = await picker
      .getByRole('checkbox')
      .evaluateAll((boxes) => boxes.map((b) => [(b as HTMLInputElement).value, (b as HTMLInputElement).checked]));
    const routed = (await gw.admin.get('/api/admin/models?platform=kling').expect(200)).body.data.map((m: Entry) => m.id);
    expect(offered.map(([id]) => id)).toEqual(routed);
    expect(Object.fromEntries(offered)).toEqual(Object.fromEntries(routed.map((id: string) => [id, before.models.includes(id)])));
    await expect(picker.getByRole('checkbox', { name: 'alpha/v6' }).count()).resolves.toBe(0);
    await picker.getByRole('checkbox', { name: 'kling-v3-1' }).check();
    await session.screenshot('en-desktop-channel-picker', { fullPage: false });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Channel simulator-kling saved.').waitFor();
    expect((await klingChannel()).models.sort()).toEqual([...before.models, 'kling-v3-1'].sort());

    // Served by an enabled channel now: the customer's model list has it, with its prices, and a task runs on it.
    const listed = await gw.http.get('/v1/videos/models').set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(listed.body.data.find((m: { id: string }) => m.id === 'kling-v3-1')).toMatchObject({
      durations: { min: 3, max: 15 },
      prices: expect.arrayContaining([expect.objectContaining({ resolution: '720p', unit: 'second', quota: 100 })]),
    });
    await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'kling-v3-1', prompt: 'a paper lantern drifting over a lake', seconds: '7', size: '1280x720' })
      .expect(200);

    // A new channel's form offers the models of the platform chosen, and follows the choice.
    await page.getByRole('button', { name: 'New channel' }).click();
    const fresh = page.getByRole('dialog', { name: 'New channel' });
    await fresh.getByLabel('Name', { exact: true }).fill('kling-backup');
    await fresh.getByLabel('Platform').selectOption('kling');
    await fresh.getByRole('checkbox', { name: 'kling-v3-1' }).waitFor();
    // A new channel starts with every active model of its platform ticked.
    await expect(fresh.getByRole('checkbox', { name: 'kling-v3-1' }).isChecked()).resolves.toBe(true);
    await expect(fresh.getByRole('checkbox', { name: 'kling-v2-6' }).isChecked()).resolves.toBe(true);
    await fresh.getByLabel('Platform').selectOption('alpha');
    await fresh.getByRole('checkbox', { name: 'alpha/v6' }).waitFor();
    await expect(fresh.getByRole('checkbox', { name: 'kling-v3-1' }).count()).resolves.toBe(0);
    // What was typed before the platform changed is still there.
    expect(await fresh.getByLabel('Name', { exact: true }).inputValue()).toBe('kling-backup');
    await fresh.getByLabel('Platform').selectOption('kling');
    await fresh.getByLabel('Base URL').fill('http://127.0.0.1:9');
    await fresh.getByLabel('Provider API key').fill('ak:sk');
    // None picked: the API's 400 names `models`, beside the form.
    await fresh.getByRole('button', { name: 'Clear', exact: true }).click();
    await fresh.getByRole('button', { name: 'Create channel' }).click();
    await expectText(fresh.getByRole('alert'), /^Check models: models must contain at least 1 elements/);
    await fresh.getByRole('checkbox', { name: 'kling-v3-1' }).check();
    await fresh.getByRole('button', { name: 'Create channel' }).click();
    await page.locator('[data-channel-id]', { hasText: 'kling-backup' }).waitFor();
    const backup = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find(
      (c: { name: string }) => c.name === 'kling-backup',
    );
    expect(backup).toMatchObject({ platform: 'kling', models: ['kling-v3-1'] });
    onlyRefusals(session, 400, 1);
  });

  it('imports a catalog file only after showing its diff, and names a bad field of the file', async () => {
    // A builtin model the operator changed: an import keeps the operator's values.
    await gw.admin.patch('/api/admin/models/kling-v1-6', { label: 'Kling 1.6 (ours)' }).expect(200);
    const exported = (await gw.admin.get('/api/admin/models/export').expect(200)).body as { version: number; models: Entry[] };
    const file = {
      version: 1,
      models: [
        ...exported.models.map((m) =>
          m.id === 'kling-v3-1' ? { ...m, label: 'Kling 3.1 (imported)' } : m.id === 'kling-v1-6' ? { ...m, label: 'Kling 1.6' } : m,
        ),
        {
          ...exported.models.find((m) => m.id === 'kling-v3-1')!,
          id: 'kling-v3-1-fast',
          label: 'Kling 3.1 Fast',
          aliases: [],
          routes: [{ platform: 'kling', upstream_model: 'kling-v3-1' }],
        },
      ],
    };
    const session = await open();
    const { page } = session;
    await page.goto('/console#/admin/models');
    await page.locator('[data-model-id="kling-v3-1"]').waitFor();

    // Export downloads the whole catalog as the import takes it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^model-catalog-\d{4}-\d{2}-\d{2}\.json$/);
    const saved = JSON.parse(await streamText(await download.createReadStream()));
    expect(saved).toEqual(exported);

    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a catalog file' });
    // A file that breaks a rule: the 400 names the model's field, and nothing is shown as a diff.
    const broken = { version: 1, models: [{ ...file.models[0], durations: { min: 9, max: 3 } }] };
    await dialog.getByLabel('Or paste its JSON').fill(JSON.stringify(broken));
    await dialog.getByRole('button', { name: 'Show changes' }).click();
    await expectText(
      dialog.getByRole('alert'),
      /^Check models\[0\]\.durations: models\[0\]\.durations must be a list of at most 600 whole seconds/,
    );
    await expect(dialog.locator('.import-diff').count()).resolves.toBe(0);

    const fileText = JSON.stringify(file, null, 2);
    await dialog
      .getByLabel('Catalog file')
      .setInputFiles({ name: 'catalog.json', mimeType: 'application/json', buffer: Buffer.from(fileText) });
    // The page reads the file asynchronously (File.text()): the text box shows it once read, in place of the broken text.
    const pasted = dialog.getByLabel('Or paste its JSON');
    await page.waitForFunction(({ box, text }) => (box as HTMLTextAreaElement).value === text, {
      box: await pasted.elementHandle(),
      text: fileText,
    });
    expect(JSON.parse(await pasted.inputValue())).toEqual(file);
    await dialog.getByRole('button', { name: 'Show changes' }).click();
    const diff = dialog.locator('.import-diff');
    await diff.waitFor();
    const group = (name: string) => diff.locator(`[data-group="${name}"]`);
    await expectText(group('added'), /Added\s*1\s*kling-v3-1-fast/);
    await expectText(group('changed'), /Changed\s*1\s*kling-v3-1$/);
    await expectText(group('kept_operator_changes'), /Kept \(your changes\)\s*1\s*kling-v1-6/);
    await expectText(group('unchanged'), `Unchanged ${exported.models.length - 2}`);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('en-desktop-import-diff', { fullPage: false });
    // A dry run changed nothing.
    await gw.admin.get('/api/admin/models/kling-v3-1-fast').expect(404);
    expect((await entry('kling-v3-1')).label).toBe('Kling 3.1');

    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
    await page.getByText('Catalog imported: 1 added, 1 changed.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expectText(page.locator('[data-model-id="kling-v3-1-fast"]'), /Kling 3\.1 Fast.*Custom.*Active/);
    await expectText(page.locator('[data-model-id="kling-v3-1"]'), /Kling 3\.1 \(imported\)/);
    await expectText(page.locator('[data-model-id="kling-v1-6"]'), /Kling 1\.6 \(ours\).*Built-in, changed/);
    expect(await entry('kling-v3-1-fast')).toMatchObject({ source: 'custom', durations: { min: 3, max: 15 } });
    expect((await entry('kling-v3-1')).label).toBe('Kling 3.1 (imported)');
    expect(await entry('kling-v1-6')).toMatchObject({ label: 'Kling 1.6 (ours)', modified: true });
    onlyRefusals(session, 400, 1);
  });

  it('deprecates a model with a sunset and a replacement, retires it, reactivates one, deletes a custom one, and shows the 409 of one with tasks', async () => {
    const session = await open();
    const { page } = session;
    await page.goto('/console#/admin/models?platform=kling');
    const fast = page.locator('[data-model-id="kling-v3-1-fast"]');
    await fast.getByRole('button', { name: 'Deprecate kling-v3-1-fast' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deprecate kling-v3-1-fast' });
    await dialog.getByLabel('Replacement').selectOption('kling-v3-1');
    await dialog.getByLabel('Sunset').fill('2031-03-01T12:00');
    await session.screenshot('en-desktop-deprecate', { fullPage: false });
    await dialog.getByRole('button', { name: 'Deprecate' }).click();
    await page.getByText('kling-v3-1-fast deprecated.').waitFor();
    const sunset = await page.evaluate(() => Math.floor(new Date('2031-03-01T12:00').getTime() / 1000));
    expect(await entry('kling-v3-1-fast')).toMatchObject({ status: 'deprecated', sunset_at: sunset, replacement: 'kling-v3-1' });
    await expectText(fast, /Deprecated.*Sunset .*2031.*Use kling-v3-1 instead/);
    await fast.scrollIntoViewIfNeeded();
    await session.screenshot('en-desktop-deprecated', { fullPage: false });

    // Retire asks for a replacement, offering only active models (not kling-v1-6, retired below, nor itself).
    await fast.getByRole('button', { name: 'Retire kling-v3-1-fast' }).click();
    const retire = page.getByRole('dialog', { name: 'Retire kling-v3-1-fast' });
    const offered = await retire.getByLabel('Replacement').locator('option').allTextContents();
    expect(offered).toContain('kling-v3-1');
    expect(offered).not.toContain('kling-v3-1-fast');
    expect(offered).not.toContain('sora-2');
    await retire.getByLabel('Replacement').selectOption('kling-v3-1');
    await retire.getByRole('button', { name: 'Retire' }).click();
    await page.getByText('kling-v3-1-fast retired.').waitFor();
    expect(await entry('kling-v3-1-fast')).toMatchObject({ status: 'retired', replacement: 'kling-v3-1' });
    await expectText(fast, /Retired/);

    // A builtin model cannot be deleted (no button); it is retired, and can come back.
    const builtin = page.locator('[data-model-id="kling-v1-6"]');
    await expect(builtin.getByRole('button', { name: 'Delete kling-v1-6' }).count()).resolves.toBe(0);
    await builtin.getByRole('button', { name: 'Retire kling-v1-6' }).click();
    await page.getByRole('dialog', { name: 'Retire kling-v1-6' }).getByRole('button', { name: 'Retire' }).click();
    await expectText(builtin, /Retired/);
    await builtin.getByRole('button', { name: 'Reactivate kling-v1-6' }).click();
    await page.getByText('kling-v1-6 is active again.').waitFor();
    expect(await entry('kling-v1-6')).toMatchObject({ status: 'active', sunset_at: null, replacement: null });

    await fast.getByRole('button', { name: 'Delete kling-v3-1-fast' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('kling-v3-1-fast deleted.').waitFor();
    await fast.waitFor({ state: 'detached' });
    await gw.admin.get('/api/admin/models/kling-v3-1-fast').expect(404);

    // kling-v3-1 has a task (the previous test's): the API's 409 is shown, and it stays.
    await page.locator('[data-model-id="kling-v3-1"]').getByRole('button', { name: 'Delete kling-v3-1' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('model kling-v3-1 has tasks: retire it instead (PATCH status "retired")').waitFor();
    await entry('kling-v3-1');

    // Editing opens the same form, filled in; a change is saved with PATCH.
    await page.locator('[data-model-id="kling-v3-1"]').getByRole('button', { name: 'Edit kling-v3-1' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit kling-v3-1' });
    expect(await edit.getByLabel('Model id').getAttribute('readonly')).not.toBeNull();
    expect(await edit.getByLabel('From (s)').inputValue()).toBe('3');
    expect(await edit.getByLabel('To (s)').inputValue()).toBe('15');
    expect(await edit.locator('[data-price-row]').count()).toBe(2);
    expect(await edit.locator('[data-route-row="0"]').getByLabel('Upstream model').inputValue()).toBe('kling-v3-1');
    await edit.getByLabel('Longest prompt (characters)').fill('2500');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Model kling-v3-1 saved.').waitFor();
    expect(await entry('kling-v3-1')).toMatchObject({
      prompt_max_length: 2500,
      durations: { min: 3, max: 15 },
      label: 'Kling 3.1 (imported)',
    });

    // A builtin model opened and saved as it was is not sent: it stays unmodified, so later releases still update it.
    await page.locator('[data-model-id="kling-v2-6"]').getByRole('button', { name: 'Edit kling-v2-6' }).click();
    const builtinForm = page.getByRole('dialog', { name: 'Edit kling-v2-6' });
    await builtinForm.getByText('A built-in model: once you change it, later releases keep your values.').waitFor();
    await builtinForm.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Nothing changed in kling-v2-6.').waitFor();
    expect(await entry('kling-v2-6')).toMatchObject({ source: 'builtin', modified: false });
    onlyRefusals(session, 409, 1);
  });

  // axe audits the Chinese pages on both screens here; the English flows above audit the English ones.
  const LOOKS = (['en', 'zh-CN'] as const).flatMap((lang) =>
    [
      { name: 'desktop', viewport: { width: 1440, height: 900 } },
      { name: 'phone', viewport: { width: 390, height: 844 } },
    ].map((size) => ({ lang, ...size, audit: lang === 'zh-CN' })),
  );
  const WORDS = {
    en: {
      title: 'Models',
      add: 'Add model',
      import: 'Import',
      check: 'Show changes',
      edit: 'Edit simulator-kling',
      custom: 'Custom',
      durations: /^Check durations: durations must be a list of at most 600 whole seconds/,
    },
    'zh-CN': {
      title: '模型',
      add: '添加模型',
      import: '导入',
      check: '查看变更',
      edit: '编辑 simulator-kling',
      custom: '自定义',
      // The rule the field broke, in Chinese: never the validator's English.
      durations: /^请检查 durations：\s*必须是整数秒的列表/,
    },
  };

  it.each(LOOKS)(
    'shows the page, its form with an error, the import diff and the channel picker in $lang on a $name: no overflow, no axe violations where audited',
    async ({ lang, name, viewport, audit }) => {
      const words = WORDS[lang];
      const session = await open({ lang, viewport, suffix: `-${lang}-${name}` });
      const { page } = session;
      const problems: Record<string, unknown> = {};
      const check = async (what: string, fullPage: boolean) => {
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) problems[`${what} overflow`] = overflow;
        const violations = audit ? await auditAccessibility(page) : [];
        if (violations.length) problems[`${what} axe`] = violations;
        await session.screenshot(what, { fullPage });
      };
      await page.goto('/console#/admin/models');
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();
      await expectText(page.locator('[data-model-id="kling-v3-1"]'), words.custom);
      await check('list', false);

      await page.getByRole('button', { name: words.add }).click();
      const form = page.locator('#model-form');
      await form.locator('[name="id"]').fill(`looks-${lang}`);
      await form.locator('[name="durations"]').fill('0');
      await form.locator('[name="prices[0].resolution"]').fill('720p');
      await form.locator('[name="prices[0].price"]').fill('100');
      await form.locator('[name="routes[0].upstream_model"]').fill('kling-v3-1');
      await form.locator('[type="submit"]').click();
      // The field it names, in the page's language, then the API's own message.
      await expectText(form.getByRole('alert'), words.durations);
      await form.getByRole('alert').scrollIntoViewIfNeeded();
      await check('form-error', false);
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: words.import, exact: true }).click();
      const exported = (await gw.admin.get('/api/admin/models/export').expect(200)).body;
      await page.locator('textarea[name="file"]').fill(JSON.stringify(exported));
      await page.getByRole('button', { name: words.check }).click();
      await page.locator('.import-diff').waitFor();
      await check('import-diff', false);
      await page.keyboard.press('Escape');

      await page.goto('/console#/admin/channels');
      await page.getByRole('button', { name: words.edit }).click();
      await page.locator('fieldset.model-picker input[value="kling-v3-1"]').waitFor();
      await page.locator('fieldset.model-picker').scrollIntoViewIfNeeded();
      await check('channel-picker', false);
      expect(problems).toEqual({});
      onlyRefusals(session, 400, 1);
    },
    120_000,
  );

  it('finds a model among the catalog by words of its id, name or upstream model, on a phone too, and keeps the search in the URL', async () => {
    const session = await open({ lang: 'zh-CN', viewport: { width: 390, height: 844 } });
    const { page } = session;
    await page.goto('/console#/admin/models');
    await page.locator('[data-model-id="kling-v2-6"]').first().waitFor();
    const listed = async () => [
      ...new Set(await page.locator('[data-model-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model-id')))),
    ];
    const all = (await gw.admin.get('/api/admin/models').expect(200)).body.data as Entry[];
    expect((await listed()).length).toBe(all.length);

    await page.getByLabel('搜索').fill('Kling 2.5');
    await page.waitForFunction(() => /q=Kling/.test(location.hash));
    await page.waitForFunction(() => !document.querySelector('[data-model-id="sora-2"]'));
    const found = await listed();
    // Both words, any case, in the id, the name or a route's upstream model (Kling 2.5 Turbo is one entry: `kling-v2-5-turbo`, its fal route's endpoint `fal-ai/kling-video/v2.5-turbo/...`).
    const expected = all
      .filter((m) => {
        const text = [m.id, m.label ?? '', ...(m.routes as Array<{ upstream_model: unknown }>).map((r) => JSON.stringify(r.upstream_model))]
          .join(' ')
          .toLowerCase();
        return text.includes('kling') && text.includes('2.5');
      })
      .map((m) => m.id);
    expect(expected).toContain('kling-v2-5-turbo');
    expect(found.sort()).toEqual(expected.sort());
    await expectText(page.locator('.model-count'), `${expected.length} 个模型`);
    await session.screenshot('zh-CN-phone-search', { fullPage: false });

    // The search is in the URL: a reload keeps it.
    await page.reload();
    await page.waitForFunction(() => !!document.querySelector('[data-model-id]') && !document.querySelector('[data-model-id="sora-2"]'));
    expect((await listed()).sort()).toEqual(expected.sort());
    await page.getByLabel('搜索').fill('no-such-model-anywhere');
    await expectText(page.locator('.list-card'), '没有符合筛选条件的模型。');
    expect(realErrors(session)).toEqual([]);
  }, 60_000);
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
