import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  horizontalOverflow,
  Look,
  LOOKS,
  lookName,
  describeWithBrowser,
  launchBrowser,
  openLook,
  pollSimulatorQuickly,
  realErrors,
  signInByRequest,
} from './support/browser';
import { until } from './support/until';

/**
 * Every console page in the shared looks: English and Simplified Chinese, light and dark, 1440x900
 * and a 390x844 phone, each pair of those together once (LOOKS). Each page renders its heading, nothing sticks out sideways on the phone, axe finds
 * no WCAG A/AA violation (in the two audited looks, which hold both themes and both screens), and a full-page screenshot goes to test-artifacts/ (one sweep per look;
 * the flows themselves are tested once, in English, by the other console browser tests).
 */
jest.setTimeout(180_000);

describeWithBrowser('web console in every language, theme and size', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const customer = { username: `looks_${process.pid}`, password: 'looks-password', key: '' };
  const tasks = { done: '', failed: '' };

  const CUSTOMER_PAGES = ['overview', 'tasks', 'keys', 'logs', 'verification', 'webhooks'];
  /** What the page's language must be, and the words its sign-in heading shows. */
  const SIGN_IN = { en: 'Sign in', 'zh-CN': '登录' };
  /** A failed task's reason, its category in the page's language. */
  const GENERATION_FAILED = { en: 'generation failed', 'zh-CN': '生成失败' };

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on', TASK_SYNC_INTERVAL_MS: '200' }), launchBrowser()]);
    await pollSimulatorQuickly(gw);
    const user = await gw.admin
      .post('/api/admin/users', { username: customer.username, password: customer.password, quota: 500_000 })
      .expect(201);
    customer.key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'looks' }).expect(201)).body.key;
    const submit = (prompt: string) =>
      request(gw.url)
        .post('/v1/videos')
        .set('Authorization', `Bearer ${customer.key}`)
        .send({ model: 'alpha/v6', prompt, duration: 5 })
        .expect(200);
    tasks.done = (await submit('a lighthouse at dusk, waves on the rocks')).body.id;
    tasks.failed = (await submit('a storm over the sea [simulate:fail]')).body.id;
    await request(gw.url)
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'alpha/v6', prompt: 'a cat surfing', duration: 5 })
      .expect(200);
    gw.clock.advance(6_000);
    await until('the tasks to end', async () => (await gw.admin.get(`/api/admin/tasks?user_id=${user.body.id}`).expect(200)).body.data, {
      done: (tasks: Array<{ status: string }>) => tasks.every((task) => ['SUCCESS', 'FAILURE'].includes(task.status)),
      timeoutMs: 20_000,
      everyMs: 200,
    });
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  async function check(session: BrowserSession, look: Look, name: string, fullPage = true): Promise<void> {
    const { page } = session;
    await page.locator('main h1').first().waitFor();
    await settle(page);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme])).toEqual([
      look.lang,
      look.theme,
    ]);
    if (look.viewport.width < 640) expect({ name, overflow: await horizontalOverflow(page) }).toEqual({ name, overflow: 0 });
    if (look.audit) expect({ name, violations: await auditAccessibility(page) }).toEqual({ name, violations: [] });
    await session.screenshot(name.replace(/\//g, '-'), { fullPage });
  }

  it.each(LOOKS.map((look) => [lookName(look), look] as const))('%s: sign-in, customer and admin pages', async (_name, look) => {
    const signedOut = await openLook(browser, gw.url, look, 'look');
    sessions.push(signedOut);
    await signedOut.page.goto('/console');
    await signedOut.page.getByRole('heading', { level: 1, name: SIGN_IN[look.lang] }).waitFor();
    await check(signedOut, look, 'sign-in');
    await signedOut.close();

    const user = await openLook(browser, gw.url, look, 'look-customer');
    sessions.push(user);
    await signInByRequest(user, { username: customer.username, password: customer.password });
    for (const path of CUSTOMER_PAGES) {
      await user.page.goto(`/console#/${path}`);
      await check(user, look, path);
    }
    await user.page.goto('/console#/tasks');
    const failedReason = user.page.locator(`[data-task-id="${tasks.failed}"] .fail-reason`).first();
    await failedReason.waitFor();
    expect(await failedReason.textContent()).toContain(GENERATION_FAILED[look.lang]);
    // The task drawer with its player.
    await user.page.goto(`/console#/tasks?task=${tasks.done}`);
    await user.page.getByRole('dialog').locator('video').waitFor();
    await check(user, look, 'task-drawer', false);
    expect(realErrors(user)).toEqual([]);
    await user.close();
    // The admin pages have the same sweep in console-admin-browser.e2e-spec.ts.
  });

  it('remembers the language and theme a user picks, over the system defaults', async () => {
    const session = await openLook(browser, gw.url, LOOKS[0], 'look-switch');
    sessions.push(session);
    const { page } = session;
    await page.goto('/console');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    await page.getByRole('button', { name: '切换到深色主题' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: '登录' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dataset.theme])).toEqual(['zh-CN', 'dark']);
  });
});

/** Waits until the page stops fetching (pages load their data after the heading shows). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(150);
}
