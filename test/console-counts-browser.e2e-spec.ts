import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import { BrowserSession, describeWithBrowser, launchBrowser, openPage, signInByRequest } from './support/browser';

/** Counts and sizes read as English and Chinese say them ("1 task", "0 B"); the Prices page shows only the prices that apply. */
describeWithBrowser('console counts, units and prices that apply', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  async function open(lang: string, viewport?: { width: number; height: number }): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, { prefix: 'counts', suffix: `-${lang}${viewport ? '-phone' : ''}`, viewport });
    sessions.push(session);
    await session.context.addInitScript((l) => localStorage.setItem('console.lang', l), lang);
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    return session;
  }

  it('says one of a thing in the singular, formatted or not, and bytes as B', async () => {
    const { page } = await open('en');
    await page.goto('/console');
    await page.locator('main').waitFor();
    // A string, not a function: the test's compiler would turn the page's dynamic imports into require().
    const said = await page.evaluate(`(async () => {
      const { t } = await import('/console/assets/js/lib/i18n.js');
      const { num } = await import('/console/assets/js/lib/format.js');
      const { bytes } = await import('/console/assets/js/lib/admin-format.js');
      return {
        task: t('dash.taskCount', { n: num(1) }),
        tasks: t('dash.taskCount', { n: num(2) }),
        customerTask: t('overview.taskCount', { n: num(1) }),
        row: t('dash.stat.rowsRemoved', { n: num(1) }),
        zero: bytes(0),
        small: bytes(512),
        big: bytes(1234567),
      };
    })()`);
    expect(said).toEqual({
      task: '1 task',
      tasks: '2 tasks',
      customerTask: '1 task',
      row: '1 row',
      zero: '0 B',
      small: '512 B',
      big: '1.2 MB',
    });
  });

  it.each([['en'], ['zh-CN']])('shows no audio price on a model without audio, and keeps it on one with (%s)', async (lang) => {
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      const session = await open(lang, viewport);
      const { page } = session;
      await page.goto('/console#/admin/prices?model=MiniMax-Hailuo-02');
      const silent = page.locator('details[data-model="MiniMax-Hailuo-02"]');
      await silent.locator('[data-price-id]').first().waitFor();
      const audioLabel = lang === 'en' ? 'Audio' : '音频';
      await expect(silent.getByText(audioLabel, { exact: false }).count()).resolves.toBe(0);
      await session.screenshot('prices-minimax');
      await page.goto('/console#/admin/prices?model=kling-v2-6');
      const voiced = page.locator('details[data-model="kling-v2-6"]');
      await voiced.locator('[data-price-id]').first().waitFor();
      expect(await voiced.getByText(audioLabel, { exact: false }).count()).toBeGreaterThan(0);
    }
  });
});
