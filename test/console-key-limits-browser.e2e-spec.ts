import type { Browser } from 'playwright-core';
import request from 'supertest';
import { startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  expectText,
  launchBrowser,
  openPage,
  signInAsCustomer,
} from './support/browser';
import { until } from './support/until';

/** The customer's API keys page: a key's limits set and changed in the browser, its use against them shown. */
describeWithBrowser('console: API key limits in a browser', () => {
  let gw: TestGateway;
  let browser: Browser;
  let session: BrowserSession;
  let userId = 0;
  const customer = { username: `limits_${process.pid}`, password: 'limits-password' };

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
    userId = (await gw.admin.post('/api/admin/users', { ...customer, quota: 100_000 }).expect(201)).body.id;
    session = await openPage(browser, gw.url, { prefix: 'key-limits' });
  });
  afterAll(async () => {
    await session?.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it('creates a key with a daily budget and an allowed network, shows what is left and when it resets, and edits the limits', async () => {
    const { page } = session;
    await signInAsCustomer(page, customer);
    await page.getByRole('link', { name: 'API keys' }).click();

    const form = page.locator('#create-key-form');
    await form.getByLabel('Key name').fill('app');
    await form.getByLabel('Budget', { exact: true }).fill('10000');
    await form.getByLabel('Allowed IPs and networks').fill('127.0.0.0/8\n::1');
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('textbox', { name: 'API key' });
    await shown.waitFor();
    const key = await shown.inputValue();
    await page.getByRole('button', { name: 'Done' }).click();

    // One submit through the API: the list shows the budget's use, what is left and the reset.
    await request(gw.url)
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'alpha/v6', prompt: 'a kite', duration: 5 })
      .expect(200);
    await page.reload();
    const row = page.locator('tr[data-key-id]');
    await expectText(row, /Budget: 4,500 of 10,000 per day, 5,500 left, resets/);
    await expectText(row, /Only from 127\.0\.0\.0\/8, ::1/);
    await expectText(row, /Last used/);
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('list');

    await row.getByRole('button', { name: 'Edit the limits of key app' }).click();
    const edit = page.locator('#edit-key-form');
    await edit.getByLabel('Quota limit').fill('50000');
    await edit.getByLabel('Allowed IPs and networks').fill('');
    await edit.getByRole('button', { name: 'Save limits' }).click();
    await expectText(row, /4,500 of 50,000 spent, 45,500 left/);
    expect(await row.textContent()).not.toContain('Only from');
    expect(session.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it('shows a key past its expiry as Expired, not Active, in both languages', async () => {
    const { page } = session;
    const expiring = await gw.admin
      .post(`/api/admin/users/${userId}/keys`, { name: 'short-lived', expires_at: Math.floor(gw.clock.now() / 1000) + 60 })
      .expect(201);
    gw.clock.advance(61_000);
    await page.reload();
    const badge = page.locator(`tr[data-key-id="${expiring.body.id}"] .badge`);
    await expectText(badge, /^\s*Expired\s*$/);
    expect(await badge.getAttribute('data-status')).toBe('expired');
    await session.screenshot('expired-en');
    await page.evaluate(() => localStorage.setItem('console.lang', 'zh-CN'));
    await page.reload();
    await expectText(page.locator(`tr[data-key-id="${expiring.body.id}"] .badge`), /已过期/);
    await session.screenshot('expired-zh');

    // Its use is refused, and the refusal's row in the logs reads in the page's language, like the others.
    await request(gw.url).get('/v1/videos').set('Authorization', `Bearer ${expiring.body.key}`).expect(401);
    await until(
      'the refusal logged',
      async () => (await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=refused`).expect(200)).body.total,
      {
        done: (total) => total > 0,
        timeoutMs: 10_000,
      },
    );
    await page.goto(`${gw.url}/console#/logs`);
    const row = page.locator('tr[data-log-type="refused"]');
    await expectText(row, new RegExp(`已拒绝.*已拒绝：密钥 #${expiring.body.id} 已于 .+ 过期`));
    expect(await row.textContent()).not.toMatch(/key_expired|api key/);
    await session.screenshot('refused-zh');
    await page.evaluate(() => localStorage.setItem('console.lang', 'en'));
    await page.reload();
    await expectText(page.locator('tr[data-log-type="refused"]'), new RegExp(`Refused: key #${expiring.body.id} expired`));
  });
});
