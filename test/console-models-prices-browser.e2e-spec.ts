import type { Browser } from 'playwright-core';
import { startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  DESKTOP,
  expectText,
  horizontalOverflow,
  launchBrowser,
  openPage,
  PHONE,
  realErrors,
  signInByRequest,
} from './support/browser';

/** The customer's Models and prices page shows what GET /v1/videos/models answers their key, in both languages. */
describeWithBrowser('console: models and prices for a customer', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  let listed: Array<{ id: string; label: string | null; prices: Array<{ resolution: string; unit: string; quota: number }> }>;
  const customer = { username: `prices_${process.pid}`, password: 'prices-password' };

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
    const user = await gw.admin.post('/api/admin/users', { ...customer, quota: 1000 }).expect(201);
    const key = await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'k' }).expect(201);
    listed = (await gw.http.get('/v1/videos/models').set('Authorization', `Bearer ${key.body.key}`).expect(200)).body.data;
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  for (const [lang, viewport, name, words] of [
    ['en', DESKTOP, 'desktop', { title: 'Models and prices', perSecond: '/ s' }],
    ['zh-CN', PHONE, 'phone', { title: '模型与价格', perSecond: '/秒' }],
  ] as const) {
    it(`lists every model the customer's key may use with its prices (${lang}, ${name})`, async () => {
      const session = await openPage(browser, gw.url, { prefix: 'models-prices', suffix: `-${lang}-${name}`, viewport, locale: lang });
      sessions.push(session);
      const { page } = session;
      await signInByRequest(session, customer);
      await page.goto('/console#/models');
      await page.getByRole('heading', { level: 1, name: words.title }).waitFor();
      const rows = page.locator('[data-model-id]');
      await expectText(rows.first(), /\S/);
      expect(await rows.count()).toBe(listed.length);
      // One model's row holds each of its prices, in the customer's quota units.
      const model = listed.find((entry) => entry.prices.some((price) => price.unit === 'second'))!;
      const row = page.locator(`[data-model-id="${model.id}"]`);
      for (const price of model.prices.filter((p) => p.unit === 'second'))
        await expectText(row, `${price.resolution}: ${price.quota.toLocaleString('en-US')}${lang === 'en' ? ' ' : ''}${words.perSecond}`);
      if (name === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      expect(await auditAccessibility(page)).toEqual([]);
      await session.screenshot('list');
      expect(realErrors(session)).toEqual([]);
    });
  }
});
