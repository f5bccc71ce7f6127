import type { Browser } from 'playwright-core';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { BrowserSession, describeWithBrowser, launchBrowser, openPage, signInAsCustomer, signInByRequest } from './support/browser';

/** The customer's task list fits a 1440 px screen in both languages, and its drawer stays put when the wheel goes past its end. */
describeWithBrowser('console: the task list fits, the drawer stays put', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const customer = { username: `fit_${process.pid}`, password: 'fit-password-1' };
  let completed = '';

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
    const userId = (await gw.admin.post('/api/admin/users', { ...customer, quota: 5_000_000 }).expect(201)).body.id;
    const key = (await gw.admin.post(`/api/admin/users/${userId}/keys`, { name: 'fit' }).expect(201)).body.key;
    const submit = (prompt: string) =>
      gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v6', prompt, duration: 5 }).expect(200);
    completed = (await submit('a lighthouse at dusk, slow pan over the rocks, waves breaking below in long even sets')).body.id;
    await submit('a storm over the harbour [simulate:fail]');
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(4_000);
      await gw.sync();
    }
    await submit('a paper boat drifting down a rain gutter');
    // The longest model ids of the catalog take the most room in their column.
    await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'replicate-kling-v2-5-turbo-pro', prompt: 'a glacier calving into the sea', seconds: '5' })
      .expect(200);
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
  }, 120_000);
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  async function open(lang: string): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, { prefix: 'fit', suffix: `-${lang}`, viewport: { width: 1440, height: 900 } });
    sessions.push(session);
    await signInAsCustomer(session.page, customer);
    await session.page.evaluate((l) => localStorage.setItem('console.lang', l), lang);
    await session.page.goto('/console#/tasks');
    await session.page.reload();
    await session.page.locator(`tr[data-task-id="${completed}"]`).waitFor();
    return session;
  }

  async function openAdmin(lang: string): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, { prefix: 'fit-admin', suffix: `-${lang}`, viewport: { width: 1440, height: 900 } });
    sessions.push(session);
    await session.context.addInitScript((l) => localStorage.setItem('console.lang', l), lang);
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    await session.page.goto('/console#/admin/tasks');
    await session.page.locator(`tr[data-task-id="${completed}"]`).waitFor();
    return session;
  }

  it.each([
    ['en', 'customer'],
    ['zh-CN', 'customer'],
    ['en', 'admin'],
    ['zh-CN', 'admin'],
  ])('fits the tasks table at 1440 px, every action button inside it (%s, %s)', async (lang, who) => {
    const session = who === 'admin' ? await openAdmin(lang) : await open(lang);
    const fit = await session.page.evaluate(() => {
      const table = document.querySelector('table')!;
      const frame = table.parentElement!;
      const right = frame.getBoundingClientRect().right;
      const buttons = [...table.querySelectorAll('td .actions button')].map((b) => Math.round(b.getBoundingClientRect().right - right));
      return { overflow: table.scrollWidth - frame.clientWidth, pastTheEdge: buttons.filter((past) => past > 0) };
    });
    await session.screenshot('tasks');
    expect(fit).toEqual({ overflow: expect.any(Number), pastTheEdge: [] });
    expect(fit.overflow).toBeLessThanOrEqual(0);
  });

  it.each(['en', 'zh-CN'])(
    "on a 390 px phone a task card's long model id wraps inside its column, never under the cost beside it (%s)",
    async (lang) => {
      const session = await openPage(browser, gw.url, { prefix: 'fit-phone', suffix: `-${lang}`, viewport: { width: 390, height: 844 } });
      sessions.push(session);
      await signInAsCustomer(session.page, customer);
      await session.page.evaluate((l) => localStorage.setItem('console.lang', l), lang);
      await session.page.goto('/console#/tasks');
      await session.page.reload();
      const model = session.page.locator('.row-card code.model', { hasText: 'replicate-kling-v2-5-turbo-pro' });
      await model.waitFor();
      const layout = await model.evaluate((code) => {
        const cell = code.closest('.row-card-meta > div')!;
        const next = cell.nextElementSibling!;
        const box = code.getBoundingClientRect();
        return {
          modelRight: Math.round(box.right),
          cellRight: Math.round(cell.getBoundingClientRect().right),
          nextLeft: Math.round(next.getBoundingClientRect().left),
        };
      });
      await session.screenshot('phone-tasks');
      expect(layout.modelRight).toBeLessThanOrEqual(layout.cellRight);
      expect(layout.modelRight).toBeLessThanOrEqual(layout.nextLeft);
    },
  );

  it('keeps the drawer in place when the wheel scrolls past its end', async () => {
    const session = await open('en');
    const { page } = session;
    await page.setViewportSize({ width: 1440, height: 600 });
    await page.getByRole('button', { name: `Details of task ${completed}` }).click();
    const drawer = page.getByRole('dialog');
    await drawer.locator('.modal-head').waitFor();
    await page.mouse.move(1200, 300);
    for (let i = 0; i < 30; i++) await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
    const state = await drawer.evaluate((dialog) => ({
      dialogScrolled: dialog.scrollTop,
      headTop: Math.round(dialog.querySelector('.modal-head')!.getBoundingClientRect().top),
      bodyScrolled: dialog.querySelector('.modal-body')!.scrollTop,
    }));
    await session.screenshot('drawer-scrolled', { fullPage: false });
    expect(state.dialogScrolled).toBe(0);
    expect(state.headTop).toBe(0);
    expect(state.bodyScrolled).toBeGreaterThan(0);
  });
});
