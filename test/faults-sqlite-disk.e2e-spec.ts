import { execFileSync } from 'node:child_process';
import { rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { fillDisk, mountSmallDisk } from './support/small-disk';
import { AlphaEmulatorServer, alphaChannelBody, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { queryDatabase } from './support/test-databases';

/** alpha/v5 720p 5 s: 60 credits. */
const PRICE = 6000;

const mountPoint = mountSmallDisk(24, 'gw-full-disk-');
const describeWithDisk = mountPoint ? describe : describe.skip;

describeWithDisk('a full disk under SQLite loses nothing acknowledged', () => {
  const databasePath = join(mountPoint ?? '/nonexistent', 'gateway.sqlite');
  const env = { DATABASE_URL: `sqlite:${databasePath}`, ADMIN_TOKEN, TASK_SYNC_INTERVAL_MS: '0', MEDIA_ALLOW_PRIVATE_HOSTS: 'true' };
  let fake: AlphaEmulatorServer;
  let gateway: GatewayProcess;

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json().catch((): any => null) };
  };

  /** Rounds the webhook-events job finished without an error (each claims due rows with one UPDATE). */
  const webhookRounds = async () => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    return Number(/^gateway_job_rounds_total\{job="webhook-events",outcome="ok"\} (\d+)$/m.exec(text)?.[1] ?? 0);
  };

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gateway = await startGatewayProcess(env);
  });

  afterAll(async () => {
    await gateway?.crash();
    await fake?.close();
    try {
      execFileSync('umount', [mountPoint!]);
      rmdirSync(mountPoint!);
    } catch {
      /* leave it for the OS */
    }
  });

  it('answers 503 while writes cannot commit, recovers when space is freed, and a restart keeps every acknowledged write', async () => {
    expect((await call('POST', '/api/admin/channels', ADMIN_TOKEN, alphaChannelBody(fake))).status).toBe(201);
    const user = (await call('POST', '/api/admin/users', ADMIN_TOKEN, { username: 'disk', quota: 12 * PRICE })).body;
    const key = (await call('POST', `/api/admin/users/${user.id}/keys`, ADMIN_TOKEN, { name: 'disk' })).body.key as string;
    const submit = (prompt: string) => call('POST', '/v1/videos', key, { model: 'alpha/v5', prompt });

    const acknowledged: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await submit(`before ${i}`);
      expect(res.status).toBe(200);
      acknowledged.push(res.body.id);
    }

    const filler = fillDisk(mountPoint!);
    const refused = await submit('on a full disk');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.error).toMatchObject({ code: 'service_unavailable', type: 'server_error' });
    expect((await call('GET', '/health', ADMIN_TOKEN)).status).toBe(503);
    // A background round whose UPDATE matches no row commits even now: it must not make the gateway look healthy.
    const rounds = await webhookRounds();
    await until('two more webhook rounds on the full disk', () => webhookRounds(), { done: (seen) => seen >= rounds + 2 });
    expect((await call('GET', '/health', ADMIN_TOKEN)).status).toBe(503);

    rmSync(filler);
    // A transaction that throws (the charge finds too little quota) right after the failed COMMIT.
    const poor = (await call('POST', '/api/admin/users', ADMIN_TOKEN, { username: 'poor', quota: 1 })).body;
    const poorKey = (await call('POST', `/api/admin/users/${poor.id}/keys`, ADMIN_TOKEN, { name: 'poor' })).body.key as string;
    expect((await call('POST', '/v1/videos', poorKey, { model: 'alpha/v5', prompt: 'too expensive' })).status).toBe(402);

    for (let i = 0; i < 8; i++) {
      const res = await submit(`after ${i}`);
      expect(res.status).toBe(200);
      acknowledged.push(res.body.id);
    }
    expect((await call('POST', `/api/admin/users/${user.id}/topup`, ADMIN_TOKEN, { quota: 100 })).status).toBe(200);
    expect((await call('GET', '/health', ADMIN_TOKEN)).status).toBe(200);

    await gateway.crash();
    const tasks = await queryDatabase<{ task_id: string }>(
      { kind: 'sqlite', url: env.DATABASE_URL, drop: async () => {} },
      'SELECT task_id FROM tasks',
    );
    expect(tasks.map((row) => row.task_id).sort()).toEqual([...acknowledged].sort());

    gateway = await startGatewayProcess(env);
    for (const id of acknowledged) expect((await call('GET', `/v1/videos/${id}`, key)).status).toBe(200);
    const balance = (await call('GET', `/api/admin/users/${user.id}`, ADMIN_TOKEN)).body;
    expect(balance.quota).toBe(12 * PRICE - acknowledged.length * PRICE + 100);
    const logs = (await call('GET', `/api/admin/logs?user_id=${user.id}&page_size=100`, ADMIN_TOKEN)).body;
    expect(logs.data.filter((log: any) => log.type === 'consume')).toHaveLength(acknowledged.length);
    expect(logs.data.filter((log: any) => log.type === 'topup')).toHaveLength(2);
  });
});
