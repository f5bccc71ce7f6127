import type { Browser } from 'playwright-core';
import request from 'supertest';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  expectText,
  horizontalOverflow,
  describeWithBrowser,
  launchBrowser,
  openPage,
  pollSimulatorQuickly,
  realErrors,
  signInAsAdmin,
  signInAsCustomer,
  signInByRequest,
} from './support/browser';

/**
 * The web console in headless Chromium (Debian's package) against the gateway with its embedded
 * simulator. SQLite only: one database is enough for the UI. Pages are audited with axe-core
 * (WCAG 2.1 A/AA: labels, names, contrast) along the way.
 */
describeWithBrowser('web console in a browser', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const customer = { username: `viewer_${process.pid}`, password: 'viewer-password', id: 0, key: '' };

  async function open(options?: Parameters<typeof openPage>[2]): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, options);
    sessions.push(session);
    return session;
  }

  const submit = (body: object) => request(gw.url).post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body);

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on', TASK_SYNC_INTERVAL_MS: '200' }), launchBrowser()]);
    await pollSimulatorQuickly(gw);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it('signs an admin in with the token, creates a customer and tops them up', async () => {
    const admin = await open({ prefix: 'admin' });
    const { page } = admin;
    await page.goto('/console');
    await page.getByLabel('Admin token').waitFor();
    // Signed out, the page does not ask for a session: the browser's console shows no 401.
    expect(admin.errors).toEqual([]);
    expect(await auditAccessibility(page)).toEqual([]);
    await signInAsAdmin(page, ADMIN_TOKEN);
    // The dashboard is the admin's home; users are one link away.
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();

    const form = page.locator('#create-user-form');
    await form.getByLabel('Username').fill(customer.username);
    await form.getByLabel('Password').fill(customer.password);
    await form.getByLabel('Opening balance').fill('1000');
    await form.getByRole('button', { name: 'Create user' }).click();
    const row = page.locator(`tr[data-username="${customer.username}"]`);
    await row.waitFor();
    customer.id = Number(await row.getAttribute('data-user-id'));
    expect(await row.locator('td[data-col="quota"]').textContent()).toBe('1,000');

    await row.getByRole('button', { name: `Manage ${customer.username}` }).click();
    const dialog = page.getByRole('dialog', { name: `Manage ${customer.username}` });
    await dialog.getByLabel('Quota to add').waitFor();
    expect(await auditAccessibility(page)).toEqual([]);
    await dialog.getByLabel('Quota to add').fill('49000');
    await dialog.getByRole('button', { name: 'Top up' }).click();
    await page.getByText(`${customer.username} now has 50,000.`).waitFor();
    await expectText(row.locator('td[data-col="quota"]'), '50,000');
    expect(await gw.balance(customer.id)).toEqual({ quota: 50_000, used_quota: 0 });
    const topups = await gw.admin.get(`/api/admin/logs?user_id=${customer.id}&type=topup`).expect(200);
    expect(topups.body.data.map((log: { quota: number }) => log.quota)).toEqual([49_000, 1_000]);
    await admin.screenshot('users-topped-up');
    // The account rate limit is set in the same dialog.
    await row.getByRole('button', { name: `Manage ${customer.username}` }).click();
    await dialog.locator('#rpm-form').getByLabel('Requests per minute').fill('120');
    await dialog.getByRole('button', { name: 'Set limit' }).click();
    await page.getByText(`${customer.username} may send 120 requests a minute.`).waitFor();
    await expectText(row, /120\/min/);
    expect((await gw.admin.get(`/api/admin/users/${customer.id}`).expect(200)).body.rpm).toBe(120);

    // The channel page tests connectivity against the simulated provider and shows error rates.
    await page.getByRole('link', { name: 'Channels' }).click();
    await page.getByRole('button', { name: 'Test connectivity of simulator-alpha' }).click();
    await expectText(page.locator('#conn-1'), /OK Provider reachable, key accepted · \d+ ms/);
    await expectText(page.locator('tr[data-channel-id="1"]'), /simulator-alpha.*enabled.*\d+\.\d% \(0\)/i);
    expect(await auditAccessibility(page)).toEqual([]);
    await admin.screenshot('channels');

    // Family C's control plane is edited in the same form; secrets are write-only.
    await page.getByRole('button', { name: 'Edit simulator-gamma' }).click();
    const channelForm = page.getByRole('dialog', { name: 'Edit simulator-gamma' });
    await channelForm.getByLabel('Region (family C)').fill('cn-shanghai');
    await channelForm.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Channel simulator-gamma saved.').waitFor();
    const gamma = (await gw.admin.get('/api/admin/channels').expect(200)).body.data.find(
      (c: { name: string }) => c.name === 'simulator-gamma',
    );
    expect(gamma.settings).toMatchObject({
      region: 'cn-shanghai',
      access_key: '***',
      secret_key: '***',
      control_base_url: expect.stringContaining('/simulator/gamma-control'),
    });
    expect(realErrors(admin)).toEqual([]);
  });

  it('signs a customer in, creates a key with an allowlist and shows it only once', async () => {
    const session = await open({ prefix: 'customer' });
    const { page } = session;
    await signInAsCustomer(page, customer);
    await expectText(page.locator('[data-stat="balance"] .value'), '50,000');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('checkbox', { name: 'alpha/v6' }).waitFor();
    await page.getByText('No keys yet.').waitFor();
    // Signing in again in another tab replaces the session (and its CSRF token) under this page:
    // the page picks up the new token and carries on as the same user.
    await signInByRequest(session, { username: customer.username, password: customer.password });
    const form = page.locator('#create-key-form');
    await form.getByLabel('Key name').fill('browser-test');
    await form.getByRole('checkbox', { name: 'alpha/v6' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('textbox', { name: 'API key' });
    await shown.waitFor();
    customer.key = await shown.inputValue();
    expect(customer.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('key-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = page.locator('tr[data-key-id]');
    await expectText(row, /browser-test.*Active.*sk-.*alpha\/v6/);
    expect(await page.content()).not.toContain(customer.key);
    // The allowlist holds: another model is refused with 403.
    const refused = await submit({ model: 'alpha/c1', prompt: 'not allowed', duration: 5 }).expect(403);
    expect(refused.body.error.code).toBe('forbidden');
    // The one 403 is the stale-token attempt the page recovered from.
    expect(realErrors(session)).toEqual(['console: Failed to load resource: the server responded with a status of 403 (Forbidden)']);
  });

  it('shows a task submitted through the API live to 100% and plays its video with seeking', async () => {
    const session = await open({ prefix: 'customer' });
    const { page } = session;
    const created = await submit({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5 }).expect(200);
    // The simulated provider needs 6 s of the gateway's clock: turned back, the task stays running
    // however long the sign-in takes on a busy machine.
    const held = 10 * 60_000;
    gw.clock.advance(-held);
    const row = page.locator(`tr[data-task-id="${created.body.id}"]`);
    try {
      await signInAsCustomer(page, customer);
      await page.getByRole('link', { name: 'Tasks' }).click();
      await row.waitFor();
      const bar = row.getByRole('progressbar', { name: `Progress of task ${created.body.id}` });
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
      // The id shows shortened (so it never wraps), with a button that copies it whole.
      await expectText(row.locator('td[data-col="task"] code [aria-hidden="true"]'), /^task_.{5}….{4}$/);
      await row.getByRole('button', { name: `Copy ${created.body.id}` }).waitFor();
      const idBox = await row.locator('td[data-col="task"] code').boundingBox();
      expect(idBox!.height).toBeLessThan(30);
      await session.screenshot('task-running');
    } finally {
      // Forward again, past the 6 s; the page keeps polling meanwhile.
      gw.clock.advance(held + 6_000);
    }
    await page.waitForFunction(
      (id) => document.querySelector(`tr[data-task-id="${id}"] [role="progressbar"]`)?.getAttribute('aria-valuenow') === '100',
      created.body.id,
      { timeout: 15_000 },
    );
    await expectText(row, /Completed.*100%/);
    expect(await row.getAttribute('data-status')).toBe('completed');

    // Play opens the task's drawer with the player.
    await row.getByRole('button', { name: `Play the video of task ${created.body.id}` }).click();
    const drawer = page.getByRole('dialog', { name: 'Task' });
    const video = drawer.getByLabel(`Video of task ${created.body.id}`);
    await video.waitFor();
    const played = await video.evaluate(async (element) => {
      const v = element as HTMLVideoElement;
      const once = (event: string) =>
        new Promise<void>((resolve, reject) => {
          v.addEventListener(event, () => resolve(), { once: true });
          v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
        });
      if (v.readyState < 1) await once('loadedmetadata');
      v.muted = true;
      await v.play();
      // Until its time moves, not for a fixed time: a busy machine may take a while to decode the first frames.
      const deadline = Date.now() + 30_000;
      while (v.currentTime === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const playedTo = v.currentTime;
      v.pause();
      const target = v.duration / 2;
      const seeked = once('seeked');
      v.currentTime = target;
      await seeked;
      return { duration: v.duration, playedTo, seekedTo: v.currentTime, target, seekable: v.seekable.length ? v.seekable.end(0) : 0 };
    });
    expect(played.duration).toBeGreaterThan(0);
    expect(played.playedTo).toBeGreaterThan(0);
    expect(played.seekable).toBeCloseTo(played.duration, 1);
    expect(Math.abs(played.seekedTo - played.target)).toBeLessThan(0.5);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('video-playing', { fullPage: false });
    expect(realErrors(session)).toEqual([]);
  });

  it('shows the refund of a failed task in the logs, with its task and reason', async () => {
    const failed = await submit({ model: 'alpha/v6', prompt: 'a storm [simulate:fail]', duration: 5 }).expect(200);
    gw.clock.advance(6_000);
    const session = await open({ prefix: 'customer' });
    const { page } = session;
    await signInAsCustomer(page, customer);
    await page.getByRole('link', { name: 'Tasks' }).click();
    const taskRow = page.locator(`tr[data-task-id="${failed.body.id}"]`);
    await expectText(taskRow, /Failed.*generation failed/, 15_000);
    // A failed task's bar is red where it stopped, never a full blue one.
    await expectText(taskRow.locator('.progress'), /%/);
    expect(await taskRow.locator('.progress').getAttribute('class')).toContain('tone-danger');

    await page.getByRole('link', { name: 'Logs' }).click();
    await page.locator('#log-filters').getByLabel('Type').selectOption('refund');
    await page.locator('#log-filters').getByRole('button', { name: 'Apply filters' }).click();
    const refund = page.locator(`tr[data-log-type="refund"][data-task-id="${failed.body.id}"]`);
    await expectText(refund, new RegExp(`Refund for task .*${failed.body.id}.*Reason: generation failed`));
    const charged = await gw.admin.get(`/api/admin/logs?task_id=${failed.body.id}&type=consume`).expect(200);
    const amount = -charged.body.data[0].quota;
    await expectText(refund, `+${amount.toLocaleString('en-US')}`);
    await expectText(page.locator('[data-total="refund"] strong'), amount.toLocaleString('en-US'));
    await expectText(page.locator('[data-total="count"] strong'), '1');
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('refund-in-logs');
    expect(realErrors(session)).toEqual([]);
  });

  it('cancels a family C task still queued from its drawer: confirmed, then failed and refunded', async () => {
    const key = (await gw.admin.post(`/api/admin/users/${customer.id}/keys`, { name: 'cancel-test' }).expect(201)).body.key;
    const before = await gw.balance(customer.id);
    const session = await open({ prefix: 'customer' });
    const { page } = session;
    await signInAsCustomer(page, customer);
    const created = await request(gw.url)
      .post('/v1/video/generations')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'gamma-2-0', prompt: 'a paper boat on a pond', metadata: { resolution: '480p' } })
      .expect(200);
    // The simulated provider keeps a task queued for 2 s of the gateway's clock: turned back, it stays queued while the page works.
    const held = 10 * 60_000;
    gw.clock.advance(-held);
    try {
      await page.goto(`/console#/tasks?task=${created.body.id}`);
      const drawer = page.getByRole('dialog', { name: 'Task' });
      await drawer.getByRole('button', { name: 'Cancel task' }).waitFor();
      await session.screenshot('task-cancel-button', { fullPage: false });
      await drawer.getByRole('button', { name: 'Cancel task' }).click();
      await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Cancel task' }).click();
      await expectText(drawer, /Why it failed:.*cancelled by the client/);
      await drawer.getByRole('button', { name: 'Cancel task' }).waitFor({ state: 'detached' });
    } finally {
      gw.clock.advance(held);
    }
    const flat = await request(gw.url).get(`/v1/videos/${created.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(flat.body).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(await gw.balance(customer.id)).toEqual(before);
    expect(await auditAccessibility(page)).toEqual([]);
    expect(realErrors(session)).toEqual([]);
  });

  it('takes a customer through verification: apply, approval by an admin, liveness check, portrait assets', async () => {
    const session = await open({ prefix: 'verification' });
    const { page } = session;
    await signInAsCustomer(page, customer);
    await page.getByRole('link', { name: 'Verification' }).click();
    const apply = page.locator('#apply-form');
    await apply.getByLabel('Company').fill('Acme Pictures');
    await apply.getByLabel('Contact').fill('ops@acme.test');
    await apply.getByLabel('Use case').fill('Greeting videos of our own presenters.');
    await apply.getByRole('button', { name: 'Submit application' }).click();
    await expectText(page.locator('#verification-status'), 'Application pending');

    const admin = await open({ prefix: 'verification-admin' });
    await admin.page.goto('/console');
    await signInAsAdmin(admin.page, ADMIN_TOKEN);
    await admin.page.getByRole('link', { name: 'Users' }).click();
    const application = admin.page.getByRole('row', { name: new RegExp(`${customer.username}.*Acme Pictures`) });
    await application.getByRole('button', { name: 'Approve' }).click();
    await expectText(admin.page.locator(`tr[data-username="${customer.username}"]`), 'Approved');
    await admin.screenshot('approved');

    await page.reload();
    await expectText(page.locator('#verification-status'), 'Enabled');
    await page.getByRole('button', { name: 'Start a session' }).click();
    // The simulator's liveness page, then back to the console through the gateway's callback.
    await page.getByRole('link', { name: 'Open the liveness check' }).click();
    await page.getByRole('link', { name: 'Pass' }).click();
    await page.getByText('The liveness check reports success.').waitFor();
    const group = page.getByRole('heading', { level: 3, name: /^Group group-/ });
    await group.waitFor();
    const upload = page.locator('form[aria-label^="Upload a portrait"]');
    await upload.getByLabel('Portrait URL').fill('http://127.0.0.1:9/presenter.jpg');
    await upload.getByLabel('Name').fill('presenter-front');
    await upload.getByRole('button', { name: 'Upload portrait' }).click();
    const asset = page.getByRole('row', { name: /presenter-front.*asset:\/\/asset-/ });
    await expectText(asset, /Processing|Active/);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('assets');
    await asset.getByRole('button', { name: 'Delete asset presenter-front' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Delete asset' }).click();
    await page.getByText('No assets in this group yet.').waitFor();
    expect(realErrors(session)).toEqual([]);
    expect(realErrors(admin)).toEqual([]);
  });

  it('works on a phone, by keyboard, with the usage chart drawn and no accessibility violations', async () => {
    const session = await open({ prefix: 'phone', viewport: { width: 390, height: 844 } });
    const { page } = session;
    await page.goto('/console');
    await page.getByLabel('Username').focus();
    await page.keyboard.type(customer.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(customer.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const chart = page.getByRole('img', { name: /^Per day over the last 30 days/ });
    await chart.locator('canvas').waitFor();
    // The chart shows what this customer's tasks cost: net of the failed task's refund.
    const ledger = (await gw.admin.get(`/api/admin/logs?user_id=${customer.id}`).expect(200)).body.totals;
    const net = -(ledger.consume + ledger.refund);
    expect(net).toBeGreaterThan(0);
    expect(await chart.getAttribute('aria-label')).toContain(
      `${net.toLocaleString('en-US')} spent net of refunds, ${ledger.refund.toLocaleString('en-US')} refunded`,
    );
    const legend = page.locator('#spend-chart .legend-item');
    await expectText(legend.filter({ hasText: 'Spent (net of refunds)' }).locator('strong'), net.toLocaleString('en-US'));
    await expectText(legend.filter({ hasText: 'Refunded' }).locator('strong'), ledger.refund.toLocaleString('en-US'));
    await page.locator('#balance-chart canvas').waitFor();

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('overview');
    // On the phone each task is a card: its id on one line, progress, cost and Play all on screen.
    await page.getByRole('button', { name: 'Open the menu' }).click();
    await page.getByRole('link', { name: 'Tasks' }).click();
    const card = page.locator('li.row-card[data-status="completed"]').first();
    await card.waitFor();
    for (const part of [
      card.locator('[data-col="task"] code'),
      card.getByRole('progressbar'),
      card.locator('[data-col="cost"]'),
      card.getByRole('button', { name: /^Play the video of task/ }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect((await card.locator('[data-col="task"] code').boundingBox())!.height).toBeLessThan(30);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('tasks-phone');
    expect(realErrors(session)).toEqual([]);
  });
});
