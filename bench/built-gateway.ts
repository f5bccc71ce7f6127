import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/gateway-process';

const ADMIN = 'bench-admin-token-0123456789';
/** The body of the benches' submit and quote: family A, 5 s at 720p. */
export const BENCH_SUBMIT_BODY = JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' });

/** Node options for a gateway, from an environment variable of space-separated flags (none when unset). */
export const nodeArgsFrom = (variable: string): string[] => (process.env[variable] ?? '').split(' ').filter(Boolean);

export interface BuiltGateway {
  url: string;
  pid: number;
  /** DATABASE_URL it runs on (the floor reads the same one). */
  database: string;
  /** The bench user's API key. */
  key: string;
  /** A task of that user, queued at the upstream. */
  taskId: string;
  stop(): Promise<void>;
}

const adminCall = (base: string, path: string, body: object) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => {
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  });

/**
 * The build of `root` (its dist/main.js, built already) in a process of its own at the default
 * settings (task sync off), on `databaseUrl` or a SQLite file of its own, with a user holding a key,
 * a channel to the lean upstream at `upstreamUrl`, and one queued task. `nodeArgs`: Node options for it alone.
 */
export async function startBuiltGateway(
  root: string,
  upstreamUrl: string,
  { databaseUrl, nodeArgs = [] }: { databaseUrl?: string; nodeArgs?: string[] } = {},
): Promise<BuiltGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-built-bench-'));
  const database = databaseUrl ?? `sqlite:${join(dir, 'bench.sqlite')}`;
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(root, 'dist', 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: database,
      VIDEO_STORE: `file:${join(dir, 'videos')}`,
      ADMIN_TOKEN: ADMIN,
      SIMULATOR: 'off',
      TASK_SYNC_INTERVAL_MS: '0',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      LOG_LEVEL: 'info',
      PORT: String(port),
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (
      let tries = 0;
      !(await fetch(`${url}/health`).then(
        (res) => res.ok,
        () => false,
      ));
      tries++
    ) {
      if (tries > 300) throw new Error(`the gateway of ${root} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const user = await adminCall(url, '/api/admin/users', { username: `bench-${Date.now()}` });
    await adminCall(url, `/api/admin/users/${String(user.id)}/topup`, { quota: 1_000_000_000_000 });
    const { key } = (await adminCall(url, `/api/admin/users/${String(user.id)}/keys`, { name: 'bench' })) as { key: string };
    await adminCall(url, '/api/admin/channels', {
      name: 'bench',
      platform: 'alpha',
      base_url: upstreamUrl,
      api_key: 'bench',
      models: ['alpha/v6'],
    });
    const submitted = await fetch(`${url}/v1/videos`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: BENCH_SUBMIT_BODY,
    }).then((res) => res.json() as Promise<{ id: string }>);
    return { url, pid: child.pid!, database, key, taskId: submitted.id, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
