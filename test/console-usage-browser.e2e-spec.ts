import type { Browser } from 'playwright-core';
import { TransactionRunner } from '../src/database/transaction-runner';
import { TaskEntity } from '../src/tasks/task.entity';
import { ADMIN_TOKEN, startGateway, TestGateway } from './support/gateway';
import {
  auditAccessibility,
  BrowserSession,
  describeWithBrowser,
  horizontalOverflow,
  launchBrowser,
  openPage,
  realErrors,
  signInByRequest,
} from './support/browser';

/**
 * The console's usage pages in headless Chromium: a customer's Usage page shows a row of the task that
 * ended today and offers the same report as a CSV download; the admin's shows it with the margin. SQLite
 * only (the sums are test/usage-reports.e2e-spec.ts's, on every database).
 */
describeWithBrowser('usage in the web console', () => {
  let gw: TestGateway;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const customer = { username: `usage_${process.pid}`, password: 'usage-password' };
  let today: string;

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite'), launchBrowser()]);
    const user = await gw.admin.post('/api/admin/users', { ...customer, quota: 0 }).expect(201);
    const key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'invoices' }).expect(201)).body;
    const now = gw.clock.now();
    today = new Date(now).toISOString().slice(0, 10);
    await gw.app.get(TransactionRunner).run((manager) =>
      manager.insert(TaskEntity, {
        taskId: 'task_usagebrowser000000000000000000',
        userId: user.body.id,
        apiKeyId: key.id,
        group: 'default',
        platform: 'alpha',
        model: 'alpha/v6',
        upstreamModel: 'v6',
        action: 'textGenerate',
        status: 'SUCCESS',
        progress: 100,
        quota: 50_000,
        finalQuota: 25_000,
        usageSeconds: 5,
        providerCostMicroUsd: 1_000_000,
        request: { prompt: 'p' },
        pollFailures: 0,
        createdAt: now - 60_000,
        updatedAt: now,
        finishTime: now,
      } as never),
    );
  });
  afterAll(async () => {
    for (const session of sessions) await session.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
  });

  it("shows a customer's row for today and offers the CSV download", async () => {
    const session = await openPage(browser, gw.url, { prefix: 'usage' });
    sessions.push(session);
    const { page } = session;
    await signInByRequest(session, customer);
    await page.goto('/console#/usage');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    const row = page.locator(`tr[data-usage-key="${today}"]`);
    await row.filter({ hasText: '25,000' }).filter({ hasText: '$2.50' }).waitFor();
    await page.locator('#usage-totals', { hasText: 'Total: tasks 1, quota 25,000, paid $2.50.' }).waitFor();

    const link = page.getByRole('link', { name: 'Download CSV' });
    expect(await link.getAttribute('href')).toBe('/console/api/usage/report?group_by=day&format=csv');
    const download = await page.context().request.get((await link.getAttribute('href'))!);
    expect(download.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect(await download.text()).toBe(`key,tasks,seconds,quota,usd\r\n${today},1,5,25000,2.500000\r\n`);

    // Per API key, with its name; the link follows what is shown.
    await page.getByLabel('Group by').selectOption('key');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('tr[data-usage-key]', { hasText: 'invoices' }).waitFor();
    expect(await link.getAttribute('href')).toBe('/console/api/usage/report?group_by=key&format=csv');
    expect(await auditAccessibility(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBe(0);
    await session.screenshot('customer');
    // On a phone, a card per row, nothing sticking out.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('li.row-card', { hasText: 'invoices' }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(realErrors(session)).toEqual([]);
  });

  it('shows the admin what was charged, refunded, what the provider cost and the margin', async () => {
    const session = await openPage(browser, gw.url, { prefix: 'usage-admin' });
    sessions.push(session);
    const { page } = session;
    await signInByRequest(session, { admin_token: ADMIN_TOKEN });
    await page.goto('/console#/admin/usage?group_by=model');
    await page.getByRole('heading', { level: 1, name: 'Usage and margin' }).waitFor();
    await page
      .locator('tr[data-usage-key="alpha/v6"]')
      .filter({ hasText: '$5.00' })
      .filter({ hasText: '$2.50' })
      .filter({ hasText: '$1.00' })
      .filter({ hasText: '$1.50' })
      .waitFor();
    expect(await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/admin/usage?group_by=model&format=csv');
    expect(await auditAccessibility(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBe(0);
    await session.screenshot('admin');
    expect(realErrors(session)).toEqual([]);
  });
});
