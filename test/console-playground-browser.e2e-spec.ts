import type { Browser } from 'playwright-core';
import { startGateway, TestGateway } from './support/gateway';
import { until } from './support/until';
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
  pollSimulatorQuickly,
  realErrors,
  signInByRequest,
} from './support/browser';

const MODEL = 'alpha/v6';

/** A customer tries a model in the console with their own key: quote, generate, follow, play; charged as quoted. */
describeWithBrowser('console: the playground', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on', TASK_SYNC_INTERVAL_MS: '200' }), launchBrowser()]);
    await pollSimulatorQuickly(gw);
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  for (const [lang, viewport, name, words] of [
    [
      'en',
      DESKTOP,
      'desktop',
      { key: 'API key', model: 'Model', length: 'Length', prompt: 'Prompt', quote: 'Get a quote', go: 'Generate', costs: 'This costs' },
    ],
    [
      'zh-CN',
      PHONE,
      'phone',
      { key: 'API 密钥', model: '模型', length: '时长', prompt: '提示词', quote: '报价', go: '生成', costs: '需要' },
    ],
  ] as const) {
    it(`quotes, generates and plays a video with the customer's key, charged what it quoted (${lang}, ${name})`, async () => {
      const username = `play_${lang}_${name}`.replace('-', '_');
      const user = await gw.admin.post('/api/admin/users', { username, password: 'play-password', quota: 1_000_000 }).expect(201);
      const key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'playground' }).expect(201)).body.key as string;
      const body = { model: MODEL, prompt: 'a paper boat on a rain gutter', seconds: '5' };
      const expected = (await gw.http.post('/v1/videos/quote').set('Authorization', `Bearer ${key}`).send(body).expect(200)).body;

      const session = await openPage(browser, gw.url, { prefix: 'playground', suffix: `-${lang}-${name}`, viewport, locale: lang });
      sessions.push(session);
      const { page } = session;
      await signInByRequest(session, { username, password: 'play-password' });
      await page.goto('/console#/playground');
      await page.getByLabel(words.key, { exact: true }).fill(key);
      const form = page.locator('#playground-form');
      await form.getByLabel(words.model, { exact: true }).selectOption(MODEL);
      await form.getByLabel(words.length, { exact: true }).selectOption('5');
      await form.getByLabel(words.prompt, { exact: true }).fill(body.prompt);
      await form.getByRole('button', { name: words.quote }).click();
      await expectText(page.locator('#playground-quote'), new RegExp(`${words.costs} ${expected.quota.toLocaleString('en-US')}`));
      // The curl block is the request the form makes.
      await expectText(page.locator('#playground-curl pre'), JSON.stringify(body));

      await form.getByRole('button', { name: words.go, exact: true }).click();
      await page.locator('#playground-task').waitFor();
      // The simulated provider works on the gateway's (test) clock: moved on until the video shows.
      await until(
        'the video in the playground',
        async () => {
          gw.clock.advance(2_000);
          return page.locator('#playground-task video').isVisible();
        },
        { timeoutMs: 30_000, everyMs: 300 },
      );
      expect(await page.locator('#playground-task [role="progressbar"]').getAttribute('aria-valuenow')).toBe('100');
      const played = await page
        .locator('#playground-task video')
        .evaluate(
          (video: HTMLVideoElement) =>
            new Promise((resolve) =>
              video.readyState >= 1 ? resolve(true) : video.addEventListener('loadedmetadata', () => resolve(true)),
            ),
        );
      expect(played).toBe(true);
      expect((await gw.balance(user.body.id)).quota).toBe(1_000_000 - expected.quota);
      if (name === 'phone') expect(await horizontalOverflow(page)).toBe(0);
      expect(await auditAccessibility(page)).toEqual([]);
      await session.screenshot('done');
      expect(realErrors(session)).toEqual([]);
    }, 90_000);
  }
});
