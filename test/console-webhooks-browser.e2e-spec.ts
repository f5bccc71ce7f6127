import type { Browser } from 'playwright-core';
import request from 'supertest';
import { startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  launchBrowser,
  openPage,
  pollSimulatorQuickly,
  realErrors,
  signInAsCustomer,
} from './support/browser';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';
import { until } from './support/until';

/**
 * The console's webhooks pages in headless Chromium against the gateway with its simulator: a
 * customer adds an endpoint (the secret shown once), sees the delivery of a finished task with its
 * status code and resends it; creates its callback secret and sees a callback's delivery; an admin sees a failing endpoint. SQLite only, like the other UI test.
 */
describeWithBrowser('webhooks in the web console', () => {
  let gw: TestGateway;
  let browser: Browser;
  let receiver: WebhookReceiver;
  const sessions: BrowserSession[] = [];
  const customer = { username: `hooks_${process.pid}`, password: 'hooks-password', key: '' };

  beforeAll(async () => {
    [gw, browser, receiver] = await Promise.all([
      startGateway('sqlite', { SIMULATOR: 'on', TASK_SYNC_INTERVAL_MS: '200', WEBHOOK_DELIVERY_INTERVAL_MS: '200' }),
      launchBrowser(),
      startWebhookReceiver(),
    ]);
    await pollSimulatorQuickly(gw);
    const user = await gw.admin
      .post('/api/admin/users', { username: customer.username, password: customer.password, quota: 1_000_000 })
      .expect(201);
    customer.key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'k' }).expect(201)).body.key;
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
    await receiver?.stop();
  });

  it('adds an endpoint with its secret shown once, shows the delivery of a finished task with its status code, and resends it', async () => {
    const session = await openPage(browser, gw.url, { prefix: 'customer' });
    sessions.push(session);
    const { page } = session;
    await signInAsCustomer(page, customer);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No endpoints yet.').waitFor();

    const form = page.locator('#create-webhook-form');
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('textbox', { name: 'Signing secret' });
    await shown.waitFor();
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // Copy puts the whole secret on the clipboard.
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('.secret-once').getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Signing secret copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await auditAccessibility(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    await page.locator('tr[data-endpoint-id]', { hasText: 'Enabled' }).waitFor();

    const created = await request(gw.url)
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5 })
      .expect(200);
    await until("the task's event at the endpoint", () => receiver.received.some((event) => event.json?.data?.id === created.body.id));

    await page.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
    const row = page.locator('tr[data-delivery-id]', { hasText: created.body.id });
    await row.filter({ hasText: 'video.completed' }).filter({ hasText: '200' }).filter({ hasText: 'Delivered' }).waitFor();
    await session.screenshot('webhook-deliveries');
    expect(await auditAccessibility(page)).toEqual([]);
    await row.getByRole('button', { name: /^Resend/ }).click();
    await until('two events at the endpoint', () => receiver.received.length, { done: (received) => received === 2 });
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    expect(realErrors(session)).toEqual([]);
  });

  it('creates the callback secret (shown once), lists a callback delivery, and rotates the secret', async () => {
    const callbackReceiver = await startWebhookReceiver('/callback');
    try {
      const session = await openPage(browser, gw.url, { prefix: 'callbacks' });
      sessions.push(session);
      const { page } = session;
      await signInAsCustomer(page, customer);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.locator('#callback-secret-state', { hasText: 'No callback secret' }).waitFor();
      await page.getByText('No callbacks sent yet.').waitFor();

      await page.getByRole('button', { name: 'Create callback secret' }).click();
      const shown = page.getByRole('textbox', { name: 'Callback secret' });
      await shown.waitFor();
      const secret = await shown.inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(await auditAccessibility(page)).toEqual([]);
      await page.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      expect(await page.content()).not.toContain(secret);
      await page.locator('#callback-secret-state', { hasText: 'Callback secret set' }).waitFor();

      const created = await request(gw.url)
        .post('/v1/videos')
        .set('Authorization', `Bearer ${customer.key}`)
        .send({ model: 'alpha/v6', prompt: 'a lighthouse with a callback', duration: 5, callback_url: callbackReceiver.url })
        .expect(200);
      await until("the task's callback", () => callbackReceiver.received.some((event) => event.json?.data?.id === created.body.id));
      await page.locator('#callback-deliveries').getByRole('button', { name: 'Refresh' }).click();
      await page
        .locator('tr[data-callback-delivery-id]', { hasText: created.body.id })
        .filter({ hasText: 'video.completed' })
        .filter({ hasText: '200' })
        .filter({ hasText: 'Delivered' })
        .waitFor();

      // Rotating asks first, then shows the new secret once; the state says when it was rotated.
      await page.getByRole('button', { name: 'Rotate callback secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate callback secret' }).click();
      await shown.waitFor();
      const rotated = await shown.inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await page.getByRole('button', { name: 'Done' }).click();
      await page.locator('#callback-secret-state', { hasText: 'rotated' }).waitFor();
      await session.screenshot('webhook-callbacks');
      expect(await auditAccessibility(page)).toEqual([]);
      expect(realErrors(session)).toEqual([]);
    } finally {
      await callbackReceiver.stop();
    }
  });

  it('shows admins an endpoint that fails, with its status code', async () => {
    receiver.status = 500;
    const created = await request(gw.url)
      .post('/v1/videos')
      .set('Authorization', `Bearer ${customer.key}`)
      .send({ model: 'alpha/v6', prompt: 'a storm', duration: 5 })
      .expect(200);
    await until("the task's event at the endpoint", () => receiver.received.some((event) => event.json?.data?.id === created.body.id));
    const session = await openPage(browser, gw.url, { prefix: 'admin' });
    sessions.push(session);
    const { page } = session;
    await page.goto('/console');
    await page.getByLabel('Admin token').fill(gw.config.adminToken!);
    await page.getByRole('button', { name: 'Sign in as administrator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Failing webhooks' }).click();
    await page.locator('tr[data-endpoint-id]', { hasText: receiver.url }).filter({ hasText: 'HTTP 500' }).waitFor();
    expect(await auditAccessibility(page)).toEqual([]);
    expect(realErrors(session)).toEqual([]);
  });
});
