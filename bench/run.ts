/**
 * `npm run bench`:
 * - sync: the task-sync benchmark at 1,000 and 10,000 tasks in flight (the 1,000 run is the
 *   baseline the 10,000 run is compared with);
 * - get: GET /v1/videos/{id} and GET /v1/video/generations/{id} against a bare node:http floor doing the
 *   same database work (bench/floor-server.ts), and Express's hello, in the same run;
 * - submit: POST /v1/videos against the floor doing the same transactions and upstream call.
 * - content: GET /v1/videos/{id}/content of a 1 GiB video from the file store, side by side with a
 *   direct read of the same file, and the gateway's peak RSS (BENCH_CONTENT_MIB sets the size).
 * - webhooks: 10,000 tasks ending within a minute with 3 endpoints (one hangs): delivery latency at
 *   the healthy ones, and the sync's cadence next to the same run without webhooks.
 * - ab: this checkout against the build of BENCH_BASELINE (a git ref), side by side on one route
 *   (BENCH_AB_ROUTE: quote or get), the median of many alternated rounds (bench/ab-bench.ts).
 * BENCH=sync,get,submit,quote,content,webhooks,ab picks which run (all but ab by default), BENCH_TASKS="1000,10000" the sync sizes, BENCH_ROUNDS
 * the rounds of the get, submit and quote pairs (5), and
 * BENCH_DATABASE_URL (an empty MySQL database, e.g. mysql://root@127.0.0.1:3306/gw_bench) the database.
 */
import { runAbBench } from './ab-bench';
import { runContentBench } from './content-bench';
import { hotPathTable, runGetBench, runQuoteBench, runSubmitFloorBench } from './hot-path-bench';
import { runPushBench } from './push-bench';
import { runSyncBench, SyncBenchResult } from './sync-bench';
import { runWebhookBench } from './webhook-bench';

const write = (text: string) => process.stdout.write(text);
/** Rounds of the get, submit and quote pairs (BENCH_ROUNDS): more of them steady the median on a busy machine. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function syncBench(): Promise<void> {
  const sizes = (process.env.BENCH_TASKS ?? '1000,10000').split(',').map(Number);
  const results: SyncBenchResult[] = [];
  for (const tasks of sizes) {
    const result = await runSyncBench(tasks, process.env.BENCH_DATABASE_URL);
    results.push(result);
    write(`${JSON.stringify(result)}\n`);
  }
  const base = results[0];
  write('\nsync: tasks   db      polls/s (expected)   gap/interval p50 p99 max   max lag ms   queries/poll\n');
  for (const r of results) {
    write(
      `      ${String(r.tasks).padEnd(7)} ${r.database.padEnd(7)} ${String(r.pollsPerSecond).padStart(7)} (${String(r.expectedPollsPerSecond).padStart(6)})     ` +
        `${r.gapRatio.p50.toFixed(2)} ${r.gapRatio.p99.toFixed(2)} ${r.gapRatio.max.toFixed(2)}          ${String(r.maxSyncLagMs).padStart(6)}       ${r.queriesPerPoll}\n`,
    );
  }
  for (const r of results.slice(1)) {
    write(
      `\n${r.tasks} vs ${base.tasks} tasks: polls/s x${(r.pollsPerSecond / base.pollsPerSecond).toFixed(2)} ` +
        `(tasks x${(r.tasks / base.tasks).toFixed(0)}), p99 gap ratio ${base.gapRatio.p99} -> ${r.gapRatio.p99}, ` +
        `queries per poll ${base.queriesPerPoll} -> ${r.queriesPerPoll}\n`,
    );
  }
  const worst = results[results.length - 1];
  write(
    `target (every task polled within 1.5x its interval at ${worst.tasks} tasks, p99): ${worst.gapRatio.p99 <= 1.5 ? 'met' : 'NOT met'}\n\n`,
  );
  await pushBench(Number(process.env.BENCH_PUSH_TASKS ?? worst.tasks));
}

/** Upstream reads per second of the same tasks in flight, push off and on, side by side (BENCH_PUSH_TASKS, the largest sync size by default). */
async function pushBench(tasks: number): Promise<void> {
  const off = await runPushBench(tasks, false, process.env.BENCH_DATABASE_URL);
  write(`${JSON.stringify(off)}\n`);
  const on = await runPushBench(tasks, true, process.env.BENCH_DATABASE_URL);
  write(`${JSON.stringify(on)}\n`);
  write('\npush: tasks   db      push   poll interval   upstream reads/s (expected)\n');
  for (const r of [off, on])
    write(
      `      ${String(r.tasks).padEnd(7)} ${r.database.padEnd(7)} ${(r.push ? 'on' : 'off').padEnd(6)} ${String(r.intervalMs / 1000).padStart(5)} s         ` +
        `${String(r.readsPerSecond).padStart(6)} (${String(r.expectedReadsPerSecond).padStart(6)})\n`,
    );
  write(`push on costs x${(on.readsPerSecond / Math.max(1, off.readsPerSecond)).toFixed(2)} the upstream reads of push off\n\n`);
}

async function getBench(): Promise<void> {
  const result = await runGetBench(process.env.BENCH_DATABASE_URL, 32, ROUNDS);
  write(`${JSON.stringify(result)}\n${hotPathTable('get', result)}\n`);
}

async function quoteBench(): Promise<void> {
  const result = await runQuoteBench(process.env.BENCH_DATABASE_URL, 32, ROUNDS);
  write(`${JSON.stringify(result)}\n${hotPathTable('quote', result)}\n`);
}

async function submitBench(): Promise<void> {
  const result = await runSubmitFloorBench(process.env.BENCH_DATABASE_URL, 16, ROUNDS);
  write(`${JSON.stringify(result)}\n${hotPathTable('submit', result)}\n`);
}

async function contentBench(): Promise<void> {
  const r = await runContentBench(Number(process.env.BENCH_CONTENT_MIB ?? 1024) * 1024 * 1024);
  write(`${JSON.stringify(r)}\n`);
  write(
    `\ncontent (${(r.bytes / 2 ** 30).toFixed(2)} GiB, each read by curl; MiB/s)   direct read   bare floor   GET /content   vs direct   vs floor\n`,
  );
  const rows = [
    ['store, from disk (evicted)', r.cold],
    ['store, page cache (warm)', r.warm],
    ['proxied upstream (not archived)', r.proxied],
  ] as const;
  for (const [name, c] of rows) {
    write(
      `      ${name.padEnd(38)} ${String(c.directMiBps).padStart(6)}       ${String(c.floorMiBps).padStart(6)}       ${String(c.contentMiBps).padStart(6)}` +
        `       x${c.ratio.toFixed(2)}      x${c.floorRatio.toFixed(2)}\n`,
    );
  }
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  write(
    `targets: >= 0.8x of the disk's speed: x${r.cold.ratio.toFixed(2)} (${met(r.cold.ratio >= 0.8)}); >= 0.8x of the bare floor: store x${r.warm.floorRatio.toFixed(2)}, ` +
      `proxied x${r.proxied.floorRatio.toFixed(2)} (${met(r.warm.floorRatio >= 0.8 && r.proxied.floorRatio >= 0.8)}); ` +
      `gateway peak RSS ${r.gatewayPeakRssStoreMiB} MiB serving from the store (< 180: ${met(r.gatewayPeakRssStoreMiB < 180)}), ${r.gatewayPeakRssMiB} MiB after the relay too; ${r.gatewayRssBeforeMiB} MiB idle\n`,
  );
}

async function webhookBench(): Promise<void> {
  const tasks = Number(process.env.BENCH_WEBHOOK_TASKS ?? 10_000);
  const without = await runWebhookBench(false, tasks, process.env.BENCH_DATABASE_URL);
  write(`${JSON.stringify(without)}\n`);
  const withHooks = await runWebhookBench(true, tasks, process.env.BENCH_DATABASE_URL);
  write(`${JSON.stringify(withHooks)}\n`);
  write(
    `\nwebhooks (${withHooks.database}, ${tasks} tasks ending within a minute): run        all ended after   polls/s   gap/interval p50 p99 max   max sync lag ms\n`,
  );
  for (const r of [without, withHooks]) {
    write(
      `      ${(r.webhooks ? '3 endpoints, 1 hangs' : 'no webhooks').padEnd(22)} ${String(r.endedWithinMs).padStart(8)} ms   ${String(r.pollsPerSecond).padStart(7)}   ` +
        `${r.gapRatio.p50.toFixed(2)} ${r.gapRatio.p99.toFixed(2)} ${r.gapRatio.max.toFixed(2)}          ${String(r.maxSyncLagMs).padStart(6)}\n`,
    );
  }
  const d = withHooks.deliveryMs!;
  write(
    `delivery latency, task end -> healthy endpoint (${d.count} deliveries): p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms; the hanging endpoint got ${withHooks.hangingAttempts} attempts\n\n`,
  );
}

async function abBench(): Promise<void> {
  const baseline = process.env.BENCH_BASELINE;
  if (!baseline) throw new Error('BENCH=ab needs BENCH_BASELINE, the git ref to compare this checkout with');
  const route = process.env.BENCH_AB_ROUTE === 'get' ? 'get' : 'quote';
  const r = await runAbBench(baseline, route, Number(process.env.BENCH_ROUNDS ?? 30));
  write(`${JSON.stringify(r)}\n`);
  write(
    `\nab: ${r.route}, ${r.rounds} alternated rounds of ${r.roundMs / 1000} s each   CPU us/req median (lowest)   req/s median\n` +
      `      baseline ${r.baseline.build.padEnd(24)} ${String(r.baseline.cpuUsPerRequest.median).padStart(6)} (${r.baseline.cpuUsPerRequest.lowest})` +
      `            ${r.baseline.perSecond.median}\n` +
      `      ${r.current.build.padEnd(33)} ${String(r.current.cpuUsPerRequest.median).padStart(6)} (${r.current.cpuUsPerRequest.lowest})` +
      `            ${r.current.perSecond.median}\n` +
      `CPU ratio baseline / this checkout, per round: median x${r.cpuRatio.median} (quartiles ${r.cpuRatio.lowerQuartile}-${r.cpuRatio.upperQuartile}; above 1: this checkout costs less)\n\n`,
  );
}

async function main(): Promise<void> {
  const selected = (process.env.BENCH ?? 'sync,get,submit,quote,content,webhooks').split(',');
  if (selected.includes('sync')) await syncBench();
  if (selected.includes('get')) await getBench();
  if (selected.includes('submit')) await submitBench();
  if (selected.includes('quote')) await quoteBench();
  if (selected.includes('content')) await contentBench();
  if (selected.includes('webhooks')) await webhookBench();
  if (selected.includes('ab')) await abBench();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
