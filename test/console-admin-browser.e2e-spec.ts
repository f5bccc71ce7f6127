import type { Browser } from 'playwright-core';
import { RedemptionCodesService } from '../src/billing/redemption/redemption-codes.service';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  expectText,
  describeWithBrowser,
  launchBrowser,
  LOOKS,
  openPage,
  realErrors,
  signInByRequest,
} from './support/browser';
import { startLoopbackServer } from './support/http-server';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';
import { until } from './support/until';

/**
 * The admin console in headless Chromium against the gateway with its embedded simulator (SQLite:
 * one database is enough for the UI). Tasks are made through the API first, so the dashboard, the
 * task list and the drawer show real data. Sweeps render every admin page in both languages, both
 * themes, on a desktop and on a phone (each pair of those together once), with axe (WCAG 2.1 A/AA) and
 * an overflow check on each.
 */
describeWithBrowser('admin console in a browser', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const tasks = { completed: '', failed: '', running: '' };
  let customer: { userId: number; key: string };
  let receiver: WebhookReceiver;

  async function open(options: Parameters<typeof openPage>[2] & { lang?: string; theme?: string } = {}): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, options);
    sessions.push(session);
    const { lang = 'en', theme = 'light' } = options;
    await session.context.addInitScript(
      ([l, th]) => {
        localStorage.setItem('console.lang', l);
        localStorage.setItem('console.theme', th);
      },
      [lang, theme],
    );
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    return session;
  }

  const submit = (prompt: string) =>
    gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(200);

  beforeAll(async () => {
    [gw, browser, receiver] = await Promise.all([
      startGateway('sqlite', { SIMULATOR: 'on', WEBHOOK_DELIVERY_INTERVAL_MS: '200' }),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    customer = await gw.createCustomer({ quota: 5_000_000, username: 'studio_north' });
    // The customer's webhook endpoint answers 500: it shows on the failing webhooks page and the dashboard.
    receiver.status = 500;
    await gw.http.post('/v1/webhooks').set('Authorization', `Bearer ${customer.key}`).send({ url: receiver.url }).expect(201);
    tasks.completed = (await submit('a lighthouse at dusk, slow pan over the rocks')).body.id;
    tasks.failed = (await submit('a storm over the harbour [simulate:fail]')).body.id;
    gw.clock.advance(3_000);
    await gw.sync();
    gw.clock.advance(4_000);
    await gw.sync();
    tasks.running = (await submit('a paper boat drifting down a rain gutter')).body.id;
    gw.clock.advance(2_000);
    await gw.sync();
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    const states = await Promise.all(
      Object.values(tasks).map(async (id) => (await gw.admin.get(`/api/admin/tasks?q=${id}`).expect(200)).body.data[0].status),
    );
    expect(states).toEqual(['SUCCESS', 'FAILURE', expect.stringMatching(/QUEUED|IN_PROGRESS|NOT_START/)]);
    await until(
      'the webhook endpoint listed as failing',
      async () => (await gw.admin.get('/api/admin/webhooks/failing').expect(200)).body.data,
      {
        done: (failing) => failing.length > 0,
        timeoutMs: 15_000,
      },
    );
    // Redemption codes to list: one redeemed by the customer, two unused.
    const codes = (await gw.admin.post('/api/admin/redemption-codes', { quota: 1000, count: 3 }).expect(201)).body.data;
    await gw.app.get(RedemptionCodesService).redeem(customer.userId, codes[0].code);
    // A model whose prices are out of text order, to see them sorted by resolution.
    await gw.admin
      .post('/api/admin/models', {
        id: 'zeta/demo',
        modes: ['text-to-video'],
        durations: [5],
        resolutions: ['360p', '720p', '1080p'],
        aspect_ratios: [],
        audio: 'none',
        prices: ['1080p', '360p', '720p'].map((resolution) => ({ resolution, unit: 'second', price: 100 * parseInt(resolution, 10) })),
        routes: [{ platform: 'alpha', upstream_model: 'zeta-demo' }],
      })
      .expect(201);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
    await receiver?.stop();
  });

  it('lands on the dashboard, whose charts and tables show the tasks made for this test', async () => {
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 } });
    const { page } = session;
    await page.goto('/console');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.locator('#tasks-chart canvas').waitFor();
    await expectText(page.locator('[data-stat="tasks"] .value'), '3');
    await expectText(page.locator('[data-stat="webhooks"] .value'), '1');
    const chart = page.getByRole('img', { name: /3 tasks created per hour over the last 24 hours/ });
    expect(await chart.getAttribute('aria-label')).toMatch(/Completed 1, Failed 1, .*In progress|Queued/);
    // The legend reads the totals per status.
    await expectText(page.locator('#tasks-card .legend'), /Failed\s*1.*Completed\s*1/);
    const model = page.locator('#model-card [data-model="alpha/v6"]');
    await expectText(model, /alpha\/v6.*50\.0%.*3.*1.*1/);
    await expectText(page.locator('#model-quota-card [data-model="alpha/v6"]'), /alpha\/v6/);
    await expectText(page.locator('#channel-card [data-channel-id]').first(), /simulator-alpha/);
    // The margin per model and per channel: the two tasks that ended (one completed, one failed and refunded), in USD.
    await expectText(page.locator('#margin-model-card [data-margin-key="alpha/v6"]'), /alpha\/v6.*2.*\$[\d.,]+.*\$[\d.,]+/s);
    await expectText(page.locator('#margin-channel-card [data-margin-key]').first(), /simulator-alpha.*2.*\$/s);
    // Another range asks again and keeps it in the URL.
    await page.getByRole('button', { name: 'Last hour' }).click();
    await page.getByRole('img', { name: /per minute over the last hour/i }).waitFor();
    expect(page.url()).toContain('range=1h');
    await expectText(page.locator('#tasks-card .legend'), /Failed\s*1.*Completed\s*1/);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.getByRole('img', { name: /per 6 hours over the last 7 days/ }).waitFor();
    await session.screenshot('en-light-desktop-dashboard-7d');
    expect(realErrors(session)).toEqual([]);
  });

  it("finds a task by its prompt and plays its video in the drawer, which names the channel and the provider's id", async () => {
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 } });
    const { page } = session;
    await page.goto('/console#/admin/tasks');
    await page.locator(`tr[data-task-id="${tasks.failed}"]`).waitFor();
    await expectText(page.locator(`tr[data-task-id="${tasks.failed}"]`), /Failed.*generation failed/);
    expect(await page.locator(`tr[data-task-id="${tasks.failed}"] [role="progressbar"]`).getAttribute('aria-valuetext')).toMatch(
      /^Failed at/,
    );
    await page.getByLabel('Search').fill('lighthouse');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    expect(page.url()).toContain('q=lighthouse');
    const row = page.locator(`tr[data-task-id="${tasks.completed}"]`);
    await expectText(row, /Completed.*100%.*#\d+.*alpha\/v6.*simulator-alpha/);
    expect(await row.locator('img.thumb').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    await row.getByRole('button', { name: `Play the video of task ${tasks.completed}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Task' });
    await expectText(drawer.locator('[data-fact="channel"]'), /simulator-alpha #\d+/);
    const detail = (await gw.admin.get(`/api/admin/tasks/${tasks.completed}`).expect(200)).body;
    expect(await drawer.locator('[data-fact="upstream-id"] code').getAttribute('title')).toBe(detail.upstream_task_id);
    await expectText(drawer, /studio_north/);
    const played = await drawer.getByLabel(`Video of task ${tasks.completed}`).evaluate(async (element) => {
      const v = element as HTMLVideoElement;
      if (v.readyState < 1)
        await new Promise((resolve, reject) => {
          v.addEventListener('loadedmetadata', resolve, { once: true });
          v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
        });
      v.muted = true;
      await v.play();
      // Until its time moves, not for a fixed time: a busy machine may take a while to decode the first frames.
      const deadline = Date.now() + 30_000;
      while (v.currentTime === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      v.pause();
      return { duration: v.duration, playedTo: v.currentTime };
    });
    expect(played.duration).toBeGreaterThan(0);
    expect(played.playedTo).toBeGreaterThan(0);
    // The player's source seeks by Range; an unfinished task has no video.
    const part = await gw.admin.get(`/api/admin/tasks/${tasks.completed}/content`).set('Range', 'bytes=0-99').expect(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
    await gw.admin.get(`/api/admin/tasks/${tasks.running}/content`).expect(404);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('en-light-desktop-task-drawer-playing', { fullPage: false });
    expect(realErrors(session)).toEqual([]);
  });

  it('lists prices by resolution in numeric order with their money, and edits one in place', async () => {
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 } });
    const { page } = session;
    await page.goto('/console#/admin/prices');
    const group = page.locator('[data-model="zeta/demo"]');
    await group.locator('tr[data-resolution]').first().waitFor();
    expect(await group.locator('tr[data-resolution]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-resolution')))).toEqual([
      '360p',
      '720p',
      '1080p',
    ]);
    const { currency } = (await gw.admin.get('/api/admin/prices').expect(200)).body;
    const row = group.locator('tr[data-resolution="720p"]');
    const money = (units: number) =>
      new Intl.NumberFormat('en', {
        style: 'currency',
        currency: currency.code,
        minimumFractionDigits: 2,
        maximumFractionDigits: 4,
      }).format(units / currency.quota_per_unit);
    await expectText(row, '72,000');
    await row.getByRole('button', { name: 'Edit the price of zeta/demo 720p' }).click();
    const input = row.getByLabel('Price of zeta/demo 720p', { exact: true });
    await input.fill('90000');
    await expectText(row, `≈ ${money(90_000)}`);
    await row.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Price of zeta/demo 720p saved.').waitFor();
    await expectText(row, /90,000/);
    const saved = (await gw.admin.get('/api/admin/prices').expect(200)).body.data.find(
      (r: { model: string; resolution: string }) => r.model === 'zeta/demo' && r.resolution === '720p',
    );
    expect(saved).toMatchObject({ price: 90_000, unit: 'second' });
    await expectText(row, money(90_000));
    expect(realErrors(session)).toEqual([]);
  });

  it('issues a key for a customer from the Manage dialog with a daily budget and an allowed network, edits its budget, revokes it', async () => {
    type KeyView = {
      id: number;
      name: string;
      status: string;
      budget: number | null;
      budget_period: string | null;
      allowed_ips: string[] | null;
    };
    const keyOf = async (name: string): Promise<KeyView> =>
      (await gw.admin.get(`/api/admin/users/${customer.userId}/keys`).expect(200)).body.data.find((k: KeyView) => k.name === name);
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 } });
    const { page } = session;
    await page.goto('/console#/admin/users');
    await page.getByRole('button', { name: 'Manage studio_north' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage studio_north' });
    expect(page.url()).toContain(`manage=${customer.userId}`);
    // The key the customer was created with is listed already.
    await dialog.locator('[data-key-id]').first().waitFor();

    await dialog.getByText('Issue a key').click();
    const form = dialog.locator('#admin-create-key-form');
    await form.getByLabel('Key name').fill('ops-batch');
    await form.getByLabel('Budget', { exact: true }).fill('10000');
    await form.getByLabel('Budget period').selectOption('1d');
    await form.getByLabel('Allowed IPs and networks').fill('203.0.113.0/24');
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = dialog.getByRole('textbox', { name: 'API key' });
    await shown.waitFor();
    const key = await shown.inputValue();
    await dialog.getByRole('button', { name: 'Copy' }).waitFor();
    expect(await auditAccessibility(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    const row = dialog.locator('[data-key-id]', { hasText: 'ops-batch' });
    await expectText(row, /Active/);
    await expectText(row, /Budget: 0 of 10,000 per day, 10,000 left, resets/);
    await expectText(row, /Only from 203\.0\.113\.0\/24/);
    await expectText(row, /Never used/);
    expect(await keyOf('ops-batch')).toMatchObject({
      status: 'active',
      budget: 10_000,
      budget_period: '1d',
      allowed_ips: ['203.0.113.0/24'],
    });
    // The key is the customer's and works only from that network: this test calls from loopback.
    await gw.http.get(`/v1/videos/${tasks.completed}`).set('Authorization', `Bearer ${key}`).expect(403);

    await row.getByRole('button', { name: 'Edit the limits of key ops-batch' }).click();
    const edit = dialog.locator('#admin-edit-key-form');
    expect(await edit.getByLabel('Allowed IPs and networks').inputValue()).toBe('203.0.113.0/24');
    await edit.getByLabel('Budget', { exact: true }).fill('20000');
    await edit.getByRole('button', { name: 'Save limits' }).click();
    await expectText(row, /Budget: 0 of 20,000 per day, 20,000 left/);
    await expectText(row, /Only from 203\.0\.113\.0\/24/);
    expect(await keyOf('ops-batch')).toMatchObject({ budget: 20_000, budget_period: '1d', allowed_ips: ['203.0.113.0/24'] });

    await row.getByRole('button', { name: 'Revoke key ops-batch' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Revoke' }).click();
    await expectText(row, /Revoked/);
    expect((await keyOf('ops-batch')).status).toBe('revoked');
    await gw.http.get(`/v1/videos/${tasks.completed}`).set('Authorization', `Bearer ${key}`).expect(401);
    // The customer's own key still works.
    await gw.http.get(`/v1/videos/${tasks.completed}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('en-light-desktop-user-keys', { fullPage: false });
    expect(realErrors(session)).toEqual([]);
  });

  it.each(['en', 'zh-CN'])('shows every channel action button whole at 1440x900, and the product name on one line (%s)', async (lang) => {
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 }, lang });
    const { page } = session;
    await page.goto('/console#/admin/channels');
    await page.locator('[data-channel-id] .actions button').first().waitFor();
    const clipped = await page.evaluate(() => {
      const out: string[] = [];
      const viewport = { left: 0, right: document.documentElement.clientWidth };
      for (const button of Array.from(document.querySelectorAll('[data-channel-id] .actions button'))) {
        const box = button.getBoundingClientRect();
        const frame = (button.closest('.table-wrap') ?? button.closest('table')!).getBoundingClientRect();
        const [left, right] = [Math.max(viewport.left, frame.left), Math.min(viewport.right, frame.right)];
        if (box.left < left - 0.5 || box.right > right + 0.5)
          out.push(`${button.getAttribute('aria-label')}: ${box.left}-${box.right} outside ${left}-${right}`);
      }
      return out;
    });
    expect(clipped).toEqual([]);
    // One line (no taller than one line of its text), and whole inside the sidebar.
    const name = await page.locator('.sidebar .brand span:last-child').evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight),
      right: el.getBoundingClientRect().right,
      sidebarRight: el.closest('.sidebar')!.getBoundingClientRect().right,
    }));
    expect(name.height).toBeLessThan(name.lineHeight * 1.5);
    expect(name.right).toBeLessThanOrEqual(name.sidebarRight);
    await session.screenshot(`${lang}-light-desktop-channels-1440`, { fullPage: false });
    expect(realErrors(session)).toEqual([]);
  });

  it('reads ledger details, timeline entries and actions in Chinese on zh-CN pages, never the backend English', async () => {
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 }, lang: 'zh-CN' });
    const { page } = session;
    await page.goto('/console#/admin/logs');
    const charge = page.locator('[data-log-type="consume"]').first();
    await expectText(charge, /alpha\/v6 \S+ 5 秒：\d+ × 分组 default 倍率 1/);
    expect(await charge.textContent()).not.toMatch(/x group|ratio/);
    const topups = page.locator('[data-log-type="topup"]');
    await expectText(topups.filter({ hasText: '兑换码' }).first(), /兑换码 …\w{4}（#\d+）/);
    await expectText(topups.filter({ hasText: '初始余额' }).first(), /初始余额/);
    expect(await page.locator('main').textContent()).not.toMatch(/redemption code|opening balance/);
    await page.goto(`/console#/admin/tasks?task=${tasks.completed}`);
    const timeline = page.locator('dialog ol.timeline');
    await expectText(timeline, /首次轮询/);
    expect(await timeline.textContent()).not.toMatch(/first poll|last poll|archived|quota/);
    await expectText(page.locator('dialog'), /文生视频/);
    expect(realErrors(session)).toEqual([]);
  });

  it('folds every model but the first on a phone, each saying how many prices it holds, and opens one on a tap', async () => {
    const session = await open({ prefix: 'admin', viewport: { width: 390, height: 844 } });
    const { page } = session;
    await page.goto('/console#/admin/prices');
    const groups = page.locator('details.model-prices');
    await groups.first().locator('[data-price-id]').first().waitFor();
    expect(await groups.evaluateAll((all) => all.map((group) => (group as HTMLDetailsElement).open).filter(Boolean).length)).toBe(1);
    const zeta = page.locator('details[data-model="zeta/demo"]');
    await expectText(zeta.locator('summary'), /3 prices, 36,000 to 108,000/);
    expect(await zeta.locator('[data-price-id]').first().isVisible()).toBe(false);
    await zeta.locator('summary').click();
    await zeta.locator('[data-price-id]').first().waitFor();
    expect(realErrors(session)).toEqual([]);
  });

  const PAGES: Array<[string, string | (() => string), string]> = [
    ['dashboard', 'admin/dashboard', '#tasks-chart canvas'],
    ['tasks', 'admin/tasks', '[data-task-id]'],
    // The drawer opens from the URL (a shared link to one task).
    ['task-drawer', () => `admin/tasks?task=${tasks.completed}`, 'dialog [data-fact="upstream-id"]'],
    ['users', 'admin/users', '[data-user-id]'],
    // A user's Manage dialog (from the URL), with the keys section and its key list.
    ['user-keys', () => `admin/users?manage=${customer.userId}`, 'dialog [data-key-id]'],
    ['channels', 'admin/channels', '[data-channel-id]'],
    ['models', 'admin/models', '[data-model-id]'],
    ['prices', 'admin/prices', '[data-price-id]'],
    ['logs', 'admin/logs', '[data-log-type]'],
    ['webhooks', 'admin/webhooks', '[data-endpoint-id]'],
    ['redemption-codes', 'admin/redemption-codes', '[data-code-id]'],
  ];
  // The shared looks: each pair of a language, a theme and a screen together once.
  const COMBOS = LOOKS.map((look) => ({ ...look, name: look.viewport.width < 640 ? 'phone' : 'desktop' }));

  it.each(COMBOS)(
    'renders every admin page in $lang, $theme, on a $name: no overflow, no axe violations where audited',
    async ({ lang, theme, name, viewport, audit }) => {
      const session = await open({ prefix: 'admin', viewport, lang, theme });
      const { page } = session;
      const problems: Record<string, unknown> = {};
      for (const [id, path, ready] of PAGES) {
        await page.goto(`/console#/${typeof path === 'function' ? path() : path}`);
        await page.locator('main h1').waitFor();
        await page.locator(ready).first().waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        // A refund says why, its failure category in the page's language.
        if (id === 'logs')
          await expectText(
            page.locator('[data-log-type="refund"] .refund-reason'),
            lang === 'en' ? 'Reason: generation failed' : '原因：生成失败',
          );
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems[`${id} overflow`] = overflow;
        const violations = audit ? await auditAccessibility(page) : [];
        if (violations.length) problems[`${id} axe`] = violations;
        await session.screenshot(`${lang}-${theme}-${name}-${id}`, { fullPage: id !== 'task-drawer' && id !== 'user-keys' });
      }
      expect(problems).toEqual({});
      expect(realErrors(session)).toEqual([]);
    },
    120_000,
  );

  it("cancels a customer's running Runway task from the drawer, on the customer's behalf: failed and refunded", async () => {
    const before = await gw.balance(customer.userId);
    const created = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'gen4.5', prompt: 'waves on a breakwater', seconds: '6', size: '720x1280' })
      .expect(200);
    const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 } });
    const { page } = session;
    // The simulated provider finishes after 6 s of the gateway's clock: turned back, the task still runs while the page works.
    const held = 10 * 60_000;
    gw.clock.advance(-held);
    try {
      await page.goto(`/console#/admin/tasks?task=${created.body.id}`);
      const drawer = page.getByRole('dialog', { name: 'Task' });
      await drawer.getByRole('button', { name: 'Cancel task' }).click();
      await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Cancel task' }).click();
      await expectText(drawer, /cancelled by the client/);
      await drawer.getByRole('button', { name: 'Cancel task' }).waitFor({ state: 'detached' });
    } finally {
      gw.clock.advance(held);
    }
    const flat = await gw.http.get(`/v1/videos/${created.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(flat.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(await gw.balance(customer.userId)).toEqual(before);
    expect(realErrors(session)).toEqual([]);
  });
  it.each(['en', 'zh-CN'])(
    "shows a failing channel's open breaker on the channels page and the dashboard, and closes it from its button (%s)",
    async (lang) => {
      const broken = await startLoopbackServer((_req, res) => {
        res.statusCode = 502;
        res.end('bad gateway');
      });
      // Outranks the simulator's channel: every submit tries it first, until its breaker opens.
      const brokenId = await gw.createChannel({
        name: `always-502-${lang}`,
        platform: 'alpha',
        base_url: broken.url,
        api_key: 'k',
        models: ['alpha/v6'],
        priority: 10,
      });
      try {
        for (let i = 0; i < 5; i++) await submit(`a kite ${i}`);
        expect((await gw.admin.get(`/api/admin/channels/${brokenId}`).expect(200)).body.breaker).toMatchObject({
          state: 'open',
          failures: 5,
        });
        const session = await open({ prefix: 'admin', viewport: { width: 1440, height: 900 }, lang });
        const { page } = session;
        await page.goto('/console#/admin');
        const stat = page.locator('[data-stat="breakers"]');
        await expectText(stat, lang === 'en' ? /Channels passed over/ : /被跳过的渠道/);
        expect(await stat.locator('.value').innerText()).toBe('1');
        await expectText(page.locator(`#breaker-card [data-channel-id="${brokenId}"]`), lang === 'en' ? /Open/ : /打开/);
        expect(await auditAccessibility(page)).toEqual([]);
        await session.screenshot(`${lang}-light-desktop-dashboard-breaker`, { fullPage: false });

        await page.goto('/console#/admin/channels');
        const row = page.locator(`[data-channel-id="${brokenId}"]`);
        await expectText(
          row.locator('[data-breaker="open"]'),
          lang === 'en' ? /Open.*passed over until.*5 faults in a row/s : /打开.*前不分配任务.*连续 5 次故障/s,
        );
        expect(await auditAccessibility(page)).toEqual([]);
        await session.screenshot(`${lang}-light-desktop-channels-breaker`, { fullPage: false });
        await row
          .getByRole('button', {
            name: lang === 'en' ? `Close breaker of always-502-${lang}` : `闭合熔断器：always-502-${lang}`,
          })
          .click();
        await row.locator('[data-breaker]').waitFor({ state: 'detached' });
        expect((await gw.admin.get(`/api/admin/channels/${brokenId}`).expect(200)).body.breaker).toEqual({
          state: 'closed',
          failures: 0,
          opened_at: null,
          retry_at: null,
        });
        expect(realErrors(session)).toEqual([]);
      } finally {
        await gw.admin.patch(`/api/admin/channels/${brokenId}`, { status: 'disabled' }).expect(200);
        await broken.close();
      }
    },
  );
});
