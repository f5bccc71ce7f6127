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
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SUBMIT_BODY, BuiltGateway, nodeArgsFrom, startBuiltGateway } from './built-gateway';
import { load } from './load';
import { startBenchUpstream } from './upstream-process';

const ROOT = join(__dirname, '..');
const WARM_UP_MS = 6000;
const ROUND_MS = 2500;
const CONCURRENCY = 32;

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

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

function loadSpec(route: AbRoute, gateway: BuiltGateway): object {
  const headers = { Authorization: `Bearer ${gateway.key}` };
  if (route === 'get') return { url: `${gateway.url}/v1/videos/${gateway.taskId}`, method: 'GET', headers, concurrency: CONCURRENCY };
  return {
    url: `${gateway.url}/v1/videos/quote`,
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: BENCH_SUBMIT_BODY,
    concurrency: CONCURRENCY,
  };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)];

export async function runAbBench(baseline: string, route: AbRoute = 'quote', rounds = 30): Promise<AbResult> {
  const worktree = join(mkdtempSync(join(tmpdir(), 'gw-ab-baseline-')), 'checkout');
  run('git', ['worktree', 'add', '--detach', worktree, baseline], ROOT);
  const gateways: BuiltGateway[] = [];
  const upstream = await startBenchUpstream();
  try {
    // The baseline runs on this checkout's installed packages (a commit with other dependencies is no baseline for this).
    symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
    run('npm', ['run', 'build'], worktree);
    run('npm', ['run', 'build'], ROOT);
    gateways.push(await startBuiltGateway(worktree, upstream.url));
    // BENCH_AB_NODE_ARGS: Node options for this checkout's gateway alone (a runtime flag measured against the same code without it).
    gateways.push(await startBuiltGateway(ROOT, upstream.url, { nodeArgs: nodeArgsFrom('BENCH_AB_NODE_ARGS') }));
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
    for (const gateway of gateways) await gateway.stop();
    upstream.stop();
    run('git', ['worktree', 'remove', '--force', worktree], ROOT);
  }
}
