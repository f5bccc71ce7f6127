import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, ConsoleMessage, Page } from 'playwright-core';
import type { TestGateway } from './gateway';
import { until } from './until';

/** Screenshots of browser test runs (git-ignored). */
export const ARTIFACTS_DIR = join(__dirname, '..', '..', 'test-artifacts');

/** Debian's chromium, never a downloaded one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser suites skip on a machine without Chromium (test/support/skip-reporter.js names them after
 * the summary); REQUIRE_BROWSER=1 (CI) runs them anyway, so a missing browser fails there.
 */
export const describeWithBrowser = existsSync(CHROMIUM_PATH) || process.env.REQUIRE_BROWSER === '1' ? describe : describe.skip;

/** Flags keep the browser offline and quiet. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen by the page (a clean run has none). */
  errors: string[];
  /** Saves test-artifacts/<prefix>-<name>.png: the full page, or only the viewport (a modal drawer over the page). */
  screenshot(name: string, options?: { fullPage?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** How a session opens: its viewport, the browser's language and colour scheme, and how its screenshots are named. */
interface SessionOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /** Screenshots are `<prefix>-<name><suffix>.png`. */
  prefix?: string;
  suffix?: string;
}

/** A fresh browser context (own cookies) on the gateway, with page errors collected. */
export async function openPage(browser: Browser, baseUrl: string, options: SessionOptions = {}): Promise<BrowserSession> {
  const { locale, colorScheme } = options;
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale,
    colorScheme,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return {
    context,
    page,
    errors,
    async screenshot(name: string, shot = {}) {
      const path = join(ARTIFACTS_DIR, `${options.prefix ?? 'console'}-${name}${options.suffix ?? ''}.png`);
      await page.screenshot({ path, fullPage: shot.fullPage ?? true });
      return path;
    },
    close: () => context.close(),
  };
}

export interface AccessibilityProblem {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

let axeSource: string | null = null;

/**
 * Runs axe-core (WCAG 2 A and AA rules: labels, names, contrast, landmarks...) on the page as it
 * is now. Injected through the DevTools protocol, so the page's CSP (no inline scripts) still holds.
 */
export async function auditAccessibility(page: Page): Promise<AccessibilityProblem[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** The look a page is checked in: language, theme and viewport (a phone is 390x844). */
export interface Look {
  lang: 'en' | 'zh-CN';
  theme: 'light' | 'dark';
  viewport: { width: number; height: number };
  /** Whether the sweep runs the axe audit in this look (see LOOKS). */
  audit?: boolean;
}

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * The looks a sweep checks: every pair of a language, a theme and a screen meets once (four looks,
 * not all eight). What breaks a page comes from one of them or from two together (a long Chinese
 * label on a phone, a chart in the dark theme); the four cover each such pair.
 *
 * The axe audit, half of a sweep's time, runs in the two Chinese looks: contrast follows the theme and
 * structure the screen, and those two hold both themes and both screens; the English flows audit
 * English pages as they go.
 */
export const LOOKS: Look[] = [
  { lang: 'en', theme: 'light', viewport: DESKTOP },
  { lang: 'en', theme: 'dark', viewport: PHONE },
  { lang: 'zh-CN', theme: 'light', viewport: PHONE, audit: true },
  { lang: 'zh-CN', theme: 'dark', viewport: DESKTOP, audit: true },
];

export const lookName = (look: Look) => `${look.lang}-${look.theme}-${look.viewport.width}`;

/**
 * A browser context in that look: the console picks its language from the browser's and its theme
 * from the system's colour scheme, so a fresh context with that locale and scheme opens in that look.
 */
export function openLook(browser: Browser, baseUrl: string, look: Look, prefix: string): Promise<BrowserSession> {
  return openPage(browser, baseUrl, {
    viewport: look.viewport,
    locale: look.lang,
    colorScheme: look.theme,
    prefix,
    suffix: `-${lookName(look)}`,
  });
}

/** How far the page scrolls sideways (0 when nothing sticks out past the viewport). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Waits until a locator's text matches (the console updates asynchronously). */
export async function expectText(locator: ReturnType<Page['locator']>, expected: string | RegExp, timeout = 5_000): Promise<void> {
  const text = async () =>
    (
      (await locator
        .first()
        .textContent({ timeout })
        .catch(() => '')) ?? ''
    ).replace(/\s+/g, ' ');
  await until(`${String(expected)} in the page`, text, {
    done: (shown) => (typeof expected === 'string' ? shown.includes(expected) : expected.test(shown)),
    timeoutMs: timeout,
  });
}

/** Page errors, ignoring the 401 the console's own "am I signed in?" check logs when signed out. */
export const realErrors = (session: BrowserSession): string[] => session.errors.filter((error) => !/status of 401/.test(error));

/** Signs a customer in through the console's sign-in form and waits for the overview. */
export async function signInAsCustomer(page: Page, customer: { username: string; password: string }): Promise<void> {
  await page.goto('/console');
  await page.getByLabel('Username').fill(customer.username);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** Signs the administrator in through the sign-in form of a page on /console (signed out). */
export async function signInAsAdmin(page: Page, adminToken: string): Promise<void> {
  await page.getByLabel('Admin token').fill(adminToken);
  await page.getByRole('button', { name: 'Sign in as administrator' }).click();
}

/**
 * Signs a session in through the endpoint the sign-in form posts to (the form itself is covered by
 * console-browser): the administrator with `{ admin_token }`, a customer with `{ username, password }`.
 */
export async function signInByRequest(
  session: BrowserSession,
  credentials: { admin_token: string } | { username: string; password: string },
): Promise<void> {
  const signIn = await session.context.request.post('/console/api/session', { data: credentials });
  expect(signIn.status()).toBe(200);
}

/** The simulator's channels poll every 200 ms instead of every 2 s: a quicker poll keeps a browser test short. */
export async function pollSimulatorQuickly(gw: TestGateway): Promise<void> {
  const channels = await gw.admin.get('/api/admin/channels').expect(200);
  for (const channel of channels.body.data)
    await gw.admin.patch(`/api/admin/channels/${channel.id}`, { settings: { poll_interval_ms: 200 } }).expect(200);
}
