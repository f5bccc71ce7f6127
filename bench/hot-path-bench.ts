/**
 * Hot-path benchmark: each hot path of the gateway against a bare floor, in the same run.
 * - get: `GET /v1/videos/{id}` and `GET /v1/video/generations/{id}` of a queued task, 32 keep-alive
 *   clients; the floor (bench/floor-server.ts) does the same database work on the same database in a
 *   plain node:http process; Express 5's "hello" (bench/express-hello-server.ts) shows the
 *   framework's own ceiling.
 * - submit: `POST /v1/videos` (family A text to video), 16 clients; the floor does the same two
 *   transactions and the same loopback upstream call.
 * The gateway runs built (`dist/main.js`, built first) in its own process at the default
 * LOG_LEVEL=info (its log to /dev/null), the load from a process of its own (bench/load-client.ts:
 * raw keep-alive connections, one request at a time each, as autocannon loads a server; Node's HTTP
 * client cost more CPU per request than the floor and held the floor to its pace). Beside requests per
 * second, each server's CPU time per request over the same window (/proc/<pid>/stat). Each round runs
 * the floor and the gateway back to back, 5 s each as `autocannon -d 5`, so a busy machine slows both
 * alike; the median round counts.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_SUBMIT_BODY, nodeArgsFrom, startBuiltGateway } from './built-gateway';
import { LoadResult, load } from './load';
import { startBenchServer, startBenchUpstream } from './upstream-process';

const ROOT = join(__dirname, '..');

/** A load run and the CPU time the measured server process spent on it, per request. */
export type MeasuredLoad = LoadResult & { cpuUsPerRequest: number };

export interface FloorComparison {
  name: string;
  gateway: MeasuredLoad;
  floor: MeasuredLoad;
  /** Gateway requests per second over the floor's (the median round's). */
  ratio: number;
  /** Every round's ratio. */
  rounds?: number[];
  /**
   * The floor's CPU time per request over the gateway's (the median round's): what the throughput
   * ratio would be with both CPU-bound on an otherwise idle machine. A busy machine slows a process's
   * wall clock, not the CPU time it spends on a request, so this one holds where req/s swing.
   */
  cpuRatio: number;
  cpuRounds?: number[];
  /** The lowest CPU time per request of any round, gateway and floor: the least disturbed by other work on the machine. */
  cpuLowest?: { gateway: number; floor: number };
}

export interface HotPathBenchResult {
  database: string;
  concurrency: number;
  rounds: number;
  roundMs: number;
  /** The machine's 1-minute load average before and after the measured rounds (other work on it skews both servers' figures). */
  loadAverage: string;
  comparisons: FloorComparison[];
  /** Express 5 answering a constant, on the same machine, and its ratio to the GET floor run right after it (GET runs only). */
  expressHello?: LoadResult & { ratioToFloor: number };
}

interface Running {
  database: string;
  gateway: string;
  gatewayPid: number;
  floor: string;
  floorPid: number;
  upstream: string;
  key: string;
  taskId: string;
  stop(): Promise<void>;
}

/** Builds and starts the gateway, a user with a key and a channel to the lean upstream, one queued task, and the floor on the same database. */
async function start(databaseUrl: string | undefined): Promise<Running> {
  if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('npm run build failed');
  const upstream = await startBenchUpstream();
  // BENCH_GATEWAY_NODE_ARGS: Node options for the gateway alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = nodeArgsFrom('BENCH_GATEWAY_NODE_ARGS');
  const gateway = await startBuiltGateway(ROOT, upstream.url, { databaseUrl, nodeArgs }).catch((error: unknown) => {
    upstream.stop();
    throw error;
  });
  const stopGateway = async () => {
    await gateway.stop();
    upstream.stop();
  };
  const floor = await startBenchServer('floor-server.ts', { FLOOR_DATABASE_URL: gateway.database, FLOOR_UPSTREAM_URL: upstream.url }).catch(
    async (error: unknown) => {
      await stopGateway();
      throw error;
    },
  );
  return {
    database: gateway.database.startsWith('sqlite:') ? 'sqlite' : 'mysql',
    gateway: gateway.url,
    gatewayPid: gateway.pid,
    floor: floor.url,
    floorPid: floor.pid,
    upstream: upstream.url,
    key: gateway.key,
    taskId: gateway.taskId,
    stop: async () => {
      floor.stop();
      await stopGateway();
    },
  };
}

interface Pair {
  name: string;
  floor: object;
  gateway: object;
  floorPid: number;
  gatewayPid: number;
}

/** A load run with the server's CPU time per request, read by the load client over exactly the window its requests were in flight. */
async function measuredLoad(spec: object, pid: number, durationMs: number): Promise<MeasuredLoad> {
  const result = await load({ ...spec, durationMs, cpuPid: pid });
  return { ...result, cpuUsPerRequest: result.cpuUsPerRequest ?? 0 };
}

/** Long enough for V8 to have optimized the gateway's path (far more code than the floor's): its first rounds ran slower with 2 s. */
const WARM_UP_MS = 6000;

/**
 * Each round runs every pair's floor and gateway back to back (which goes first alternates), so
 * both see the same machine; a pair's ratio is the median of its rounds' ratios, and the figures
 * shown are those of that round. After a warm-up of each.
 */
async function measurePairs(pairs: Pair[], rounds: number, roundMs: number): Promise<FloorComparison[]> {
  for (const pair of pairs) for (const spec of [pair.floor, pair.gateway]) await load({ ...spec, durationMs: WARM_UP_MS });
  const runs = new Map<string, FloorComparison[]>(pairs.map((pair) => [pair.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const pair of pairs) {
      const floorFirst = round % 2 === 0;
      const first = floorFirst
        ? await measuredLoad(pair.floor, pair.floorPid, roundMs)
        : await measuredLoad(pair.gateway, pair.gatewayPid, roundMs);
      const second = floorFirst
        ? await measuredLoad(pair.gateway, pair.gatewayPid, roundMs)
        : await measuredLoad(pair.floor, pair.floorPid, roundMs);
      const [floor, gateway] = floorFirst ? [first, second] : [second, first];
      const cpuRatio = Number((floor.cpuUsPerRequest / gateway.cpuUsPerRequest).toFixed(2));
      runs.get(pair.name)!.push({ name: pair.name, gateway, floor, ratio: ratio(gateway, floor), cpuRatio });
    }
  }
  return pairs.map((pair) => {
    const all = runs.get(pair.name)!;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
    const sorted = [...all].sort((a, b) => a.ratio - b.ratio);
    return {
      ...sorted[Math.floor((sorted.length - 1) / 2)],
      rounds: all.map((run) => run.ratio),
      cpuRatio: median(all.map((run) => run.cpuRatio)),
      cpuRounds: all.map((run) => run.cpuRatio),
      cpuLowest: {
        gateway: Math.min(...all.map((run) => run.gateway.cpuUsPerRequest)),
        floor: Math.min(...all.map((run) => run.floor.cpuUsPerRequest)),
      },
    };
  });
}

const loadRange = (before: number) => `${before.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`;

const ratio = (gateway: LoadResult, floor: LoadResult) => Number((gateway.perSecond / floor.perSecond).toFixed(2));

/** GET in both forms against the floor, plus Express's hello. */
export async function runGetBench(databaseUrl?: string, concurrency = 32, rounds = 5, roundMs = 5000): Promise<HotPathBenchResult> {
  const running = await start(databaseUrl);
  const express = await startBenchServer('express-hello-server.ts');
  try {
    const headers = { Authorization: `Bearer ${running.key}` };
    const get = (base: string, path: string) => ({ url: `${base}${path}`, method: 'GET', headers, concurrency });
    const flatPath = `/v1/videos/${running.taskId}`;
    const pids = { floorPid: running.floorPid, gatewayPid: running.gatewayPid };
    const unifiedPath = `/v1/video/generations/${running.taskId}`;
    const loadBefore = loadavg()[0];
    const comparisons = await measurePairs(
      [
        { name: 'GET /v1/videos/{id}', floor: get(running.floor, flatPath), gateway: get(running.gateway, flatPath), ...pids },
        {
          name: 'GET /v1/video/generations/{id}',
          floor: get(running.floor, unifiedPath),
          gateway: get(running.gateway, unifiedPath),
          ...pids,
        },
      ],
      rounds,
      roundMs,
    );
    // Express's own ceiling, next to the GET floor once more.
    const expressHello = await load({ url: `${express.url}/hello`, method: 'GET', headers: {}, concurrency, durationMs: roundMs });
    const floorAgain = await load({ ...get(running.floor, flatPath), durationMs: roundMs });
    return {
      database: running.database,
      concurrency,
      rounds,
      roundMs,
      loadAverage: loadRange(loadBefore),
      comparisons,
      expressHello: { ...expressHello, ratioToFloor: ratio(expressHello, floorAgain) },
    };
  } finally {
    express.stop();
    await running.stop();
  }
}

/** POST /v1/videos against the floor doing the same transactions and upstream call. */
export async function runSubmitFloorBench(databaseUrl?: string, concurrency = 16, rounds = 5, roundMs = 5000): Promise<HotPathBenchResult> {
  const running = await start(databaseUrl);
  try {
    const post = (base: string) => ({
      url: `${base}/v1/videos`,
      method: 'POST',
      headers: { Authorization: `Bearer ${running.key}`, 'Content-Type': 'application/json' },
      body: BENCH_SUBMIT_BODY,
      concurrency,
    });
    const loadBefore = loadavg()[0];
    const comparisons = await measurePairs(
      [
        {
          name: 'POST /v1/videos',
          floor: post(running.floor),
          gateway: post(running.gateway),
          floorPid: running.floorPid,
          gatewayPid: running.gatewayPid,
        },
      ],
      rounds,
      roundMs,
    );
    return { database: running.database, concurrency, rounds, roundMs, loadAverage: loadRange(loadBefore), comparisons };
  } finally {
    await running.stop();
  }
}

/** POST /v1/videos/quote against the floor doing the same reads (the key, the balance, the key's limits) and price. */
export async function runQuoteBench(databaseUrl?: string, concurrency = 32, rounds = 5, roundMs = 5000): Promise<HotPathBenchResult> {
  const running = await start(databaseUrl);
  try {
    const post = (base: string) => ({
      url: `${base}/v1/videos/quote`,
      method: 'POST',
      headers: { Authorization: `Bearer ${running.key}`, 'Content-Type': 'application/json' },
      body: BENCH_SUBMIT_BODY,
      concurrency,
    });
    const loadBefore = loadavg()[0];
    const comparisons = await measurePairs(
      [
        {
          name: 'POST /v1/videos/quote',
          floor: post(running.floor),
          gateway: post(running.gateway),
          floorPid: running.floorPid,
          gatewayPid: running.gatewayPid,
        },
      ],
      rounds,
      roundMs,
    );
    return { database: running.database, concurrency, rounds, roundMs, loadAverage: loadRange(loadBefore), comparisons };
  } finally {
    await running.stop();
  }
}

/** The comparison as a table: requests per second, p50 and p99 of the gateway and its floor, both ratios. */
export function hotPathTable(title: string, result: HotPathBenchResult): string {
  const row = (r: LoadResult) => `${String(r.perSecond).padStart(7)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)}`;
  const lines = [
    `\n${title} (${result.database}, ${result.concurrency} clients, the median of ${result.rounds} rounds of ${result.roundMs / 1000} s, floor and gateway back to back; load average ${result.loadAverage})`,
  ];
  lines.push(
    `  ${'path'.padEnd(32)} gateway req/s  p50 ms  p99 ms | floor req/s  p50 ms  p99 ms | req/s ratio | CPU us/req gateway floor | CPU ratio`,
  );
  for (const c of result.comparisons) {
    lines.push(
      `  ${c.name.padEnd(32)} ${row(c.gateway)}       | ${row(c.floor)}     | x${c.ratio.toFixed(2).padEnd(10)} | ${String(c.gateway.cpuUsPerRequest).padStart(10)} ${String(c.floor.cpuUsPerRequest).padStart(5)}       | x${c.cpuRatio.toFixed(2)}`,
    );
    lines.push(
      `  ${''.padEnd(32)} rounds: req/s ${c.rounds?.map((r) => r.toFixed(2)).join(' ')}; CPU ${c.cpuRounds?.map((r) => r.toFixed(2)).join(' ')}; lowest CPU us/req ${c.cpuLowest?.gateway} / ${c.cpuLowest?.floor}; load client CPU us/req ${c.gateway.clientCpuUsPerRequest} / ${c.floor.clientCpuUsPerRequest}; gateway statuses ${JSON.stringify(c.gateway.statuses)}`,
    );
  }
  if (result.expressHello) {
    lines.push(
      `  ${'Express 5 hello'.padEnd(32)} ${row(result.expressHello)}       |                             | x${result.expressHello.ratioToFloor.toFixed(2)} of the GET floor`,
    );
  }
  return `${lines.join('\n')}\n`;
}
