import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  DESKTOP,
  expectText,
  launchBrowser,
  openPage,
  PHONE,
  realErrors,
  signInByRequest,
} from './support/browser';

/** Money in, in a browser: an administrator makes codes, customers redeem them on their overview, in both languages. */
describeWithBrowser('console: redemption codes in a browser', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  let codes: string[] = [];

  const open = async (options: Parameters<typeof openPage>[2], lang: 'en' | 'zh-CN' = 'en') => {
    const session = await openPage(browser, gw.url, { ...options, locale: lang });
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it('an administrator makes three codes worth 2,500 each, sees them once to copy, and then only their hints', async () => {
    const session = await open({ prefix: 'codes', viewport: DESKTOP });
    const { page } = session;
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    await page.goto('/console#/admin/redemption-codes');
    await page.getByRole('heading', { level: 1, name: 'Redemption codes' }).waitFor();
    const form = page.locator('#create-codes-form');
    await form.getByLabel('Quota per code').fill('2500');
    await form.getByLabel('How many').fill('3');
    await form.getByRole('button', { name: 'Make codes' }).click();
    const shown = page.getByRole('textbox', { name: 'The codes, one per line' });
    await shown.waitFor();
    codes = (await shown.inputValue()).split('\n');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
    await expectText(page.locator('#new-codes-title'), '3 codes made, worth 2,500 each');
    expect(await auditAccessibility(page)).toEqual([]);
    await session.screenshot('made');
    await page.getByRole('button', { name: 'Done' }).click();
    await expectText(page.locator('tr[data-state="unused"]').first(), /Unused/);
    expect(await page.locator('tr[data-state="unused"]').count()).toBe(3);
    expect(await page.locator('main').textContent()).not.toContain(codes[0]);
    expect(realErrors(session)).toEqual([]);
  });

  for (const [lang, viewport, name] of [
    ['zh-CN', PHONE, 'phone'],
    ['en', DESKTOP, 'desktop'],
  ] as const) {
    it(`a customer redeems a code on the overview (${lang}, ${name}): the balance grows once; the same code again is refused`, async () => {
      const username = `redeem_${lang}_${name}`;
      await gw.admin.post('/api/admin/users', { username, password: 'redeem-password', quota: 1000 }).expect(201);
      const session = await open({ prefix: 'redeem', suffix: `-${lang}-${name}`, viewport }, lang);
      const { page } = session;
      await signInByRequest(session, { username, password: 'redeem-password' });
      await page.goto('/console#/overview');
      const words =
        lang === 'en'
          ? { code: 'Code', redeem: 'Redeem', done: 'Added 2,500 quota units: your balance is 3,500.', again: 'already been redeemed' }
          : { code: '兑换码', redeem: '兑换', done: '已增加 2,500 额度，当前余额 3,500。', again: 'already been redeemed' };
      const form = page.locator('#redeem-form');
      const code = codes[lang === 'en' ? 1 : 0];
      // Typed as a person might: lower case, spaces for dashes.
      await form.getByLabel(words.code, { exact: true }).fill(code.toLowerCase().replace(/-/g, ' '));
      await form.getByRole('button', { name: words.redeem, exact: true }).click();
      await expectText(page.locator('#toasts'), words.done);
      await expectText(page.locator('[data-stat="balance"] .value'), /3,500/);
      expect(await auditAccessibility(page)).toEqual([]);
      await session.screenshot('overview');

      await form.getByLabel(words.code, { exact: true }).fill(code);
      await form.getByRole('button', { name: words.redeem, exact: true }).click();
      await expectText(page.locator('#toasts'), new RegExp(words.again));
      expect(await form.getByLabel(words.code, { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await expectText(page.locator('[data-stat="balance"] .value'), /3,500/);
      expect(session.errors.filter((error) => !/status of (400|401)/.test(error))).toEqual([]);
    });
  }
});
