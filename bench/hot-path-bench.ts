/**
 * Hot-path benchmark: each hot path of the gateway against a bare floor, in the same run.
 * - get: `GET /v1/videos/{id}` and `GET /v1/video/generations/{id}` of a queued task, 32 keep-alive
 *   clients; the floor (bench/floor-server.ts) does the same database work on the same database in a
 *   plain node:http process; Express 5's "hello" (bench/express-hello-server.ts) shows the
 *   framework's own ceiling.
 * - submit: `POST /v1/videos` (family A text to video), 16 clients; the floor does the same two
 *   transactions and the same loopback upstream call.
 * The gateway runs built (`dist/main.js`, built first) in its own process at the default
 * LOG_LEVEL=info (its log to /dev/null), the load from a process of its own. Targets alternate in
 * rounds; the best round of each counts (the machine may be busy with other work).
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/gateway-process';
import { LoadResult, load } from './load';
import { startBenchServer, startBenchUpstream } from './upstream-process';

const ROOT = join(__dirname, '..');
const ADMIN = 'bench-admin-token-0123456789';

export interface FloorComparison {
  name: string;
  gateway: LoadResult;
  floor: LoadResult;
  /** Gateway requests per second over the floor's. */
  ratio: number;
}

export interface HotPathBenchResult {
  database: string;
  concurrency: number;
  rounds: number;
  roundMs: number;
  comparisons: FloorComparison[];
  /** Express 5 answering a constant, on the same machine (GET runs only). */
  expressHello?: LoadResult;
}

interface Running {
  database: string;
  gateway: string;
  floor: string;
  upstream: string;
  key: string;
  taskId: string;
  stop(): Promise<void>;
}

const adminCall = (base: string, path: string, body: object) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(async (res) => {
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  });

/** Builds and starts the gateway, a user with a key and a channel to the lean upstream, one queued task, and the floor on the same database. */
async function start(databaseUrl: string | undefined): Promise<Running> {
  if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('npm run build failed');
  const dir = mkdtempSync(join(tmpdir(), 'gw-hot-path-bench-'));
  const database = databaseUrl ?? `sqlite:${join(dir, 'bench.sqlite')}`;
  const upstream = await startBenchUpstream();
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: database,
    VIDEO_STORE: `file:${join(dir, 'videos')}`,
    ADMIN_TOKEN: ADMIN,
    SIMULATOR: 'off',
    TASK_SYNC_INTERVAL_MS: '0',
    MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
    LOG_LEVEL: 'info',
    PORT: String(port),
  };
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const gateway = `http://127.0.0.1:${port}`;
  let floor: { url: string; stop: () => void } | undefined;
  const stop = async () => {
    floor?.stop();
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let tries = 0; !(await fetch(`${gateway}/health`).then((res) => res.ok, () => false)); tries++) {
      if (tries > 300) throw new Error('the gateway did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const user = await adminCall(gateway, '/api/admin/users', { username: 'bench' });
    await adminCall(gateway, `/api/admin/users/${user.id}/topup`, { quota: 1_000_000_000_000 });
    const { key } = await adminCall(gateway, `/api/admin/users/${user.id}/keys`, { name: 'bench' });
    await adminCall(gateway, '/api/admin/channels', { name: 'bench', platform: 'alpha', base_url: upstream.url, api_key: 'bench', models: ['alpha/v6'] });
    const submitted = await fetch(`${gateway}/v1/videos`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' }),
    }).then((res) => res.json() as Promise<{ id: string }>);
    floor = await startBenchServer('floor-server.ts', { FLOOR_DATABASE_URL: database, FLOOR_UPSTREAM_URL: upstream.url });
    return { database: database.startsWith('sqlite:') ? 'sqlite' : 'mysql', gateway, floor: floor.url, upstream: upstream.url, key, taskId: submitted.id, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Target {
  name: string;
  spec: object;
}

/** Alternating rounds over the targets (after a short warm-up each); the best round of each. */
async function measure(targets: Target[], rounds: number, roundMs: number): Promise<Map<string, LoadResult>> {
  for (const target of targets) await load({ ...target.spec, durationMs: 1000 });
  const best = new Map<string, LoadResult>();
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const result = await load({ ...target.spec, durationMs: roundMs });
      const previous = best.get(target.name);
      if (!previous || result.perSecond > previous.perSecond) best.set(target.name, result);
    }
  }
  return best;
}

const ratio = (gateway: LoadResult, floor: LoadResult) => Number((gateway.perSecond / floor.perSecond).toFixed(2));

/** GET in both forms against the floor, plus Express's hello. */
export async function runGetBench(databaseUrl?: string, concurrency = 32, rounds = 2, roundMs = 5000): Promise<HotPathBenchResult> {
  const running = await start(databaseUrl);
  const express = await startBenchServer('express-hello-server.ts');
  try {
    const headers = { Authorization: `Bearer ${running.key}` };
    const get = (base: string, path: string) => ({ url: `${base}${path}`, method: 'GET', headers, concurrency });
    const flatPath = `/v1/videos/${running.taskId}`;
    const unifiedPath = `/v1/video/generations/${running.taskId}`;
    const results = await measure(
      [
        { name: 'floor flat', spec: get(running.floor, flatPath) },
        { name: 'gateway flat', spec: get(running.gateway, flatPath) },
        { name: 'floor unified', spec: get(running.floor, unifiedPath) },
        { name: 'gateway unified', spec: get(running.gateway, unifiedPath) },
        { name: 'express hello', spec: { url: `${express.url}/hello`, method: 'GET', headers: {}, concurrency } },
      ],
      rounds,
      roundMs,
    );
    const compare = (name: string, form: string): FloorComparison => {
      const gateway = results.get(`gateway ${form}`)!;
      const floor = results.get(`floor ${form}`)!;
      return { name, gateway, floor, ratio: ratio(gateway, floor) };
    };
    return {
      database: running.database,
      concurrency,
      rounds,
      roundMs,
      comparisons: [compare('GET /v1/videos/{id}', 'flat'), compare('GET /v1/video/generations/{id}', 'unified')],
      expressHello: results.get('express hello'),
    };
  } finally {
    express.stop();
    await running.stop();
  }
}

/** POST /v1/videos against the floor doing the same transactions and upstream call. */
export async function runSubmitFloorBench(databaseUrl?: string, concurrency = 16, rounds = 2, roundMs = 6000): Promise<HotPathBenchResult> {
  const running = await start(databaseUrl);
  try {
    const post = (base: string) => ({
      url: `${base}/v1/videos`,
      method: 'POST',
      headers: { Authorization: `Bearer ${running.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' }),
      concurrency,
    });
    const results = await measure(
      [
        { name: 'floor', spec: post(running.floor) },
        { name: 'gateway', spec: post(running.gateway) },
      ],
      rounds,
      roundMs,
    );
    const gateway = results.get('gateway')!;
    const floor = results.get('floor')!;
    return { database: running.database, concurrency, rounds, roundMs, comparisons: [{ name: 'POST /v1/videos', gateway, floor, ratio: ratio(gateway, floor) }] };
  } finally {
    await running.stop();
  }
}

/** The comparison as a table: requests per second, p50 and p99 of the gateway and its floor, the ratio. */
export function hotPathTable(title: string, result: HotPathBenchResult): string {
  const row = (r: LoadResult) => `${String(r.perSecond).padStart(7)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)}`;
  const lines = [`\n${title} (${result.database}, ${result.concurrency} clients, best of ${result.rounds} rounds of ${result.roundMs / 1000} s)`];
  lines.push(`  ${'path'.padEnd(32)} gateway req/s  p50 ms  p99 ms | floor req/s  p50 ms  p99 ms | ratio`);
  for (const c of result.comparisons) lines.push(`  ${c.name.padEnd(32)} ${row(c.gateway)}       | ${row(c.floor)}     | x${c.ratio.toFixed(2)}  ${JSON.stringify(c.gateway.statuses)}`);
  if (result.expressHello) {
    const floor = result.comparisons[0].floor.perSecond;
    lines.push(`  ${'Express 5 hello'.padEnd(32)} ${row(result.expressHello)}       |                             | x${(result.expressHello.perSecond / floor).toFixed(2)} of the GET floor`);
  }
  return `${lines.join('\n')}\n`;
}
