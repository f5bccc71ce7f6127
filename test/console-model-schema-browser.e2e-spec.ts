import type { Browser } from 'playwright-core';
import { binaryBody } from './support/binary-body';
import { FalEmulatorServer, startFalEmulator } from './support/fal-emulator';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  BrowserSession,
  describeWithBrowser,
  expectText,
  horizontalOverflow,
  launchBrowser,
  openPage,
  realErrors,
  signInByRequest,
} from './support/browser';

const ENDPOINT = 'acme/fresh-video/image-to-video';

/**
 * An operator adds a fal endpoint released this week from its published schema, in the console: the route's
 * form reads the endpoint's input through the fal channel, lists its fields and fills in the input map, the
 * operator saves, lists the model on the channel, and a customer buys a video that fal is asked for in the
 * endpoint's own words (`duration: "10s"`, `resolution: "720P"`).
 */
describeWithBrowser('console: a fal model from its schema', () => {
  let gw: TestGateway;
  let fal: FalEmulatorServer;
  let browser: Browser;
  let channel: number;
  const sessions: BrowserSession[] = [];

  beforeAll(async () => {
    [gw, fal, browser] = await Promise.all([startGateway('sqlite'), startFalEmulator(), launchBrowser()]);
    fal.defineEndpoint(ENDPOINT, {
      fields: {
        prompt: 'string',
        image_url: 'string',
        duration: ['5s', '10s'],
        resolution: ['480P', '720P'],
        enable_safety_checker: 'boolean',
      },
      required: ['prompt', 'image_url'],
    });
    channel = await gw.createChannel({
      name: 'fal-main',
      platform: 'fal',
      base_url: fal.url,
      api_key: fal.apiKey,
      models: ['kling-v2-5-turbo'],
    });
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
    await fal?.close();
  });

  async function open(lang: string, viewport: { width: number; height: number }): Promise<BrowserSession> {
    const session = await openPage(browser, gw.url, { prefix: 'schema', suffix: `-${lang}-${viewport.width}`, viewport });
    sessions.push(session);
    await session.context.addInitScript((l) => localStorage.setItem('console.lang', l), lang);
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    await session.page.goto('/console#/admin/models');
    return session;
  }

  it('reads the endpoint schema in the route form, saves the proposed map, and a customer buys the model', async () => {
    const session = await open('en', { width: 1440, height: 900 });
    const { page } = session;
    await page.getByRole('button', { name: 'Add model' }).click();
    const form = page.getByRole('dialog', { name: 'Add model' }).locator('#model-form');
    await form.getByLabel('Model id').fill('fresh-video');
    await form.getByRole('checkbox', { name: 'Text to video' }).uncheck();
    await form.getByRole('checkbox', { name: 'Image to video' }).check();
    await form.getByLabel('Lengths').fill('5, 10');
    await form.getByLabel('Resolutions').fill('720p');
    const price = form.locator('[data-price-row="0"]');
    await price.getByLabel('Resolution').fill('720p');
    await price.getByLabel('Price', { exact: true }).fill('200');
    const route = form.locator('[data-route-row="0"]');
    await route.getByLabel('Platform').selectOption('fal');
    await route.getByLabel('Upstream model').fill(ENDPOINT);
    await route.getByRole('button', { name: "Read the endpoint's schema" }).click();
    await expectText(route.getByRole('status'), `Proposed from ${ENDPOINT}'s schema (read through channel fal-main)`);
    // The endpoint's fields, listed as fal publishes them, and the map filled in from them.
    const fields = route.locator('[data-schema-field]');
    expect(await fields.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-schema-field')))).toEqual([
      'prompt',
      'image_url',
      'duration',
      'resolution',
      'enable_safety_checker',
    ]);
    const map = (field: string) => route.locator(`[data-gateway-field="${field}"]`);
    expect(await map('first_frame').getByLabel('first_frame', { exact: true }).inputValue()).toBe('image_url');
    expect(await map('seconds').getByLabel('seconds', { exact: true }).inputValue()).toBe('duration');
    expect(await map('seconds').getByLabel('seconds written as').inputValue()).toBe('seconds');
    expect(await map('negative_prompt').getByLabel('negative_prompt', { exact: true }).inputValue()).toBe('');
    await expectText(map('resolution'), /720p → 720P/);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await session.screenshot('en-desktop-schema', { fullPage: false });

    await form.getByRole('button', { name: 'Add model' }).click();
    await page.getByText('Model fresh-video added.').waitFor();
    const saved = (await gw.admin.get('/api/admin/models/fresh-video').expect(200)).body;
    expect(saved.routes).toEqual([
      {
        platform: 'fal',
        upstream_model: ENDPOINT,
        options: {
          input_map: {
            prompt: 'prompt',
            first_frame: 'image_url',
            seconds: { field: 'duration', as: 'seconds' },
            resolution: { field: 'resolution', values: { '480p': '480P', '720p': '720P' } },
          },
        },
      },
    ]);
    expect(realErrors(session)).toEqual([]);

    // Listed on the channel, a customer buys it: fal is asked in the endpoint's words, the customer charged the price.
    await gw.admin.patch(`/api/admin/channels/${channel}`, { models: ['kling-v2-5-turbo', 'fresh-video'] }).expect(200);
    const customer = await gw.createCustomer({ quota: 100_000 });
    const task = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'fresh-video', prompt: 'a lantern', input_reference: 'https://cdn.example.com/lantern.png', seconds: '10' })
      .expect(200);
    expect(fal.submits.at(-1)).toMatchObject({
      endpoint: ENDPOINT,
      input: { prompt: 'a lantern', image_url: 'https://cdn.example.com/lantern.png', duration: '10s', resolution: '720P' },
    });
    expect((await gw.balance(customer.userId)).quota).toBe(100_000 - 2000);
    for (let round = 0; round < 8; round++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
    const video = await gw.http
      .get(`/v1/videos/${task.body.id}/content`)
      .set('Authorization', `Bearer ${customer.key}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(Buffer.compare(video.body as Buffer, fal.videoBytes)).toBe(0);
  });

  it('in Chinese on a phone: the same form, its schema read and listed, nothing past the edge', async () => {
    const session = await open('zh-CN', { width: 390, height: 844 });
    const { page } = session;
    await page.locator('[data-model-id="fresh-video"]').waitFor();
    await page.locator('[data-model-id="fresh-video"]').getByRole('button', { name: '编辑 fresh-video' }).click();
    const route = page.locator('#model-form [data-route-row="0"]');
    await route.getByRole('button', { name: '读取端点的 schema' }).click();
    await expectText(route.getByRole('status'), /已根据 acme\/fresh-video\/image-to-video 的 schema/);
    await route.locator('[data-schema-field="enable_safety_checker"]').waitFor();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await route.locator('[data-input-map]').scrollIntoViewIfNeeded();
    await session.screenshot('zh-CN-phone-schema', { fullPage: false });
    expect(realErrors(session)).toEqual([]);
  });
});
