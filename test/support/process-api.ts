import { randomBytes } from 'node:crypto';
import { ADMIN_TOKEN } from './gateway';
import type { GatewayProcess } from './gateway-process';
import type { FreshDatabase } from './test-databases';

/** Calls on a gateway process (test/support/gateway-process.ts): the admin API, a customer and its key, a poll. */
export interface Response {
  status: number;
  headers: Headers;
  body: any;
  /** The body as sent. */
  text: string;
}

export async function call(gateway: GatewayProcess, auth: string, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text().catch((error: Error) => `<body unread: ${error.message}>`);
  return { status: res.status, headers: res.headers, body: parsedOrNull(text), text };
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The body as bytes (a video), with the status. */
export async function bytes(gateway: GatewayProcess, auth: string, path: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(`${gateway.url}${path}`, { headers: { Authorization: `Bearer ${auth}` } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

export async function admin(gateway: GatewayProcess, method: string, path: string, body?: unknown) {
  const res = await call(gateway, ADMIN_TOKEN, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  // An answer that is not JSON says what it was, not a null further on.
  if (res.body === null && res.status !== 204)
    throw new Error(`${method} ${path}: ${res.status} ${res.headers.get('content-type')}, not JSON: ${res.text.slice(0, 300)}`);
  return res.body;
}

export async function customer(gateway: GatewayProcess, fields: Record<string, unknown> = {}) {
  const user = await admin(gateway, 'POST', '/api/admin/users', { username: `u${randomBytes(5).toString('hex')}`, ...fields });
  const key = await admin(gateway, 'POST', `/api/admin/users/${user.id}/keys`, { name: 'k' });
  return { userId: user.id as number, key: key.key as string, keyId: key.id as number };
}

export const listVideos = (gateway: GatewayProcess, key: string) => call(gateway, key, 'GET', '/v1/videos');

export const health = async (gateway: GatewayProcess) => {
  const res = await fetch(`${gateway.url}/health`);
  return { status: res.status, body: (await res.json()) as { details: Record<string, { status: string; connected?: boolean }> } };
};

/**
 * The kill -9 suites' gateway process on `database`: the test's admin token, the fakes on loopback
 * allowed, a task sync every 200 ms and 3 s leases, so that a restart soon takes over what the
 * killed process had claimed.
 */
export const crashTestEnv = (database: FreshDatabase): Record<string, string> => ({
  DATABASE_URL: database.url,
  ADMIN_TOKEN,
  MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
  TASK_SYNC_INTERVAL_MS: '200',
  TASK_LEASE_MS: '3000',
});
