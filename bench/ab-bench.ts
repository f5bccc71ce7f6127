/**
 * `BENCH=ab BENCH_BASELINE=<git ref> npm run bench`: this checkout's gateway against another commit's,
 * side by side, on one route (BENCH_AB_ROUTE: `quote`, the default, or `get`).
 *
 * On a shared or virtual machine the same build's CPU time per request moves by a third from one
 * run to the next (docs/benchmarks.md, "The quote, third pass"): two runs made one after the other
 * cannot tell a change of a tenth. Here both builds run at once, each in its own process on its own
 * SQLite file with the same user, key and channel, and short rounds alternate between them (which
 * goes first alternates too), so that both meet the same machine; each round's ratio (the
 * baseline's CPU time per request over this build's) is taken, and the median of many rounds
 * (BENCH_ROUNDS, 30 by default) with its quartiles is the answer. Above 1: this build costs less.
 * The baseline is checked out into a temporary git worktree and built there.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './load';
import { startBenchUpstream } from './upstream-process';

const ROOT = join(__dirname, '..');
const ADMIN = 'bench-ab-admin-token-0123456789';
const WARM_UP_MS = 6000;
const ROUND_MS = 2500;
const CONCURRENCY = 32;
const QUOTE_BODY = JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' });

export type AbRoute = 'quote' | 'get';

export interface AbSide {
  build: string;
  cpuUsPerRequest: { median: number; lowest: number };
  perSecond: { median: number };
}

export interface AbResult {
  route: string;
  rounds: number;
  roundMs: number;
  baseline: AbSide;
  current: AbSide;
  /** Per round: the baseline's CPU time per request over this build's (above 1: this build costs less). */
  cpuRatio: { median: number; lowerQuartile: number; upperQuartile: number; rounds: number[] };
}

interface RunningGateway {
  base: string;
  key: string;
  pid: number;
  taskId: string;
  child: ChildProcess;
  dir: string;
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function adminCall(base: string, path: string, body: object): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A built gateway of `root` on a SQLite file of its own, with a user, a key, a channel to the lean upstream and one task. */
async function startGateway(root: string, upstream: string): Promise<RunningGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-ab-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
      VIDEO_STORE: `file:${join(dir, 'videos')}`,
      ADMIN_TOKEN: ADMIN,
      SIMULATOR: 'off',
      TASK_SYNC_INTERVAL_MS: '0',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      LOG_LEVEL: 'info',
      PORT: String(port),
    },
  });
  const base = `http://127.0.0.1:${port}`;
  for (
    let tries = 0;
    !(await fetch(`${base}/health`).then(
      (res) => res.ok,
      () => false,
    ));
    tries++
  ) {
    if (tries > 300) throw new Error(`the gateway of ${root} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const user = await adminCall(base, '/api/admin/users', { username: `ab-${Date.now()}` });
  await adminCall(base, `/api/admin/users/${String(user.id)}/topup`, { quota: 1_000_000_000_000 });
  const { key } = (await adminCall(base, `/api/admin/users/${String(user.id)}/keys`, { name: 'ab' })) as { key: string };
  await adminCall(base, '/api/admin/channels', { name: 'ab', platform: 'alpha', base_url: upstream, api_key: 'ab', models: ['alpha/v6'] });
  const submitted = await fetch(`${base}/v1/videos`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: QUOTE_BODY,
  }).then((res) => res.json() as Promise<{ id: string }>);
  return { base, key, pid: child.pid!, taskId: submitted.id, child, dir };
}

function loadSpec(route: AbRoute, gateway: RunningGateway): object {
  const headers = { Authorization: `Bearer ${gateway.key}` };
  if (route === 'get') return { url: `${gateway.base}/v1/videos/${gateway.taskId}`, method: 'GET', headers, concurrency: CONCURRENCY };
  return {
    url: `${gateway.base}/v1/videos/quote`,
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: QUOTE_BODY,
    concurrency: CONCURRENCY,
  };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];

export async function runAbBench(baseline: string, route: AbRoute = 'quote', rounds = 30): Promise<AbResult> {
  const worktree = join(mkdtempSync(join(tmpdir(), 'gw-ab-baseline-')), 'checkout');
  run('git', ['worktree', 'add', '--detach', worktree, baseline], ROOT);
  const gateways: RunningGateway[] = [];
  const upstream = await startBenchUpstream();
  try {
    // The baseline runs on this checkout's installed packages (a commit with other dependencies is no baseline for this).
    symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
    run('npm', ['run', 'build'], worktree);
    run('npm', ['run', 'build'], ROOT);
    gateways.push(await startGateway(worktree, upstream.url), await startGateway(ROOT, upstream.url));
    for (const gateway of gateways) await load({ ...loadSpec(route, gateway), durationMs: WARM_UP_MS });
    const cpu: number[][] = [[], []];
    const perSecond: number[][] = [[], []];
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const result = await load({ ...loadSpec(route, gateways[side]), durationMs: ROUND_MS, cpuPid: gateways[side].pid });
        cpu[side].push(result.cpuUsPerRequest ?? 0);
        perSecond[side].push(result.perSecond);
      }
    }
    const ratios = cpu[1].map((current, round) => Number((cpu[0][round] / current).toFixed(2)));
    const side = (index: number, build: string): AbSide => ({
      build,
      cpuUsPerRequest: { median: quantile(cpu[index], 0.5), lowest: Math.min(...cpu[index]) },
      perSecond: { median: quantile(perSecond[index], 0.5) },
    });
    return {
      route: route === 'get' ? 'GET /v1/videos/{id}' : 'POST /v1/videos/quote',
      rounds,
      roundMs: ROUND_MS,
      baseline: side(0, baseline),
      current: side(1, 'this checkout'),
      cpuRatio: {
        median: quantile(ratios, 0.5),
        lowerQuartile: quantile(ratios, 0.25),
        upperQuartile: quantile(ratios, 0.75),
        rounds: ratios,
      },
    };
  } finally {
    for (const gateway of gateways) {
      gateway.child.kill('SIGTERM');
      if (gateway.child.exitCode === null) await new Promise((resolve) => gateway.child.once('exit', resolve));
      rmSync(gateway.dir, { recursive: true, force: true });
    }
    upstream.stop();
    run('git', ['worktree', 'remove', '--force', worktree], ROOT);
  }
}
