/**
 * `npm run bench`: the task-sync benchmark at 1,000 and 10,000 tasks in flight (the 1,000 run is
 * the baseline the 10,000 run is compared with). BENCH_TASKS="1000,10000" and
 * BENCH_DATABASE_URL (e.g. mysql://root@127.0.0.1:3306/bench) change what runs.
 */
import { runSyncBench, SyncBenchResult } from './sync-bench';

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_TASKS ?? '1000,10000').split(',').map(Number);
  const results: SyncBenchResult[] = [];
  for (const tasks of sizes) {
    const result = await runSyncBench(tasks, process.env.BENCH_DATABASE_URL);
    results.push(result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  const base = results[0];
  process.stdout.write('\ntasks   db      polls/s (expected)   gap/interval p50 p99 max   max lag ms   queries/poll\n');
  for (const r of results) {
    process.stdout.write(
      `${String(r.tasks).padEnd(7)} ${r.database.padEnd(7)} ${String(r.pollsPerSecond).padStart(7)} (${String(r.expectedPollsPerSecond).padStart(6)})     ` +
        `${r.gapRatio.p50.toFixed(2)} ${r.gapRatio.p99.toFixed(2)} ${r.gapRatio.max.toFixed(2)}          ${String(r.maxSyncLagMs).padStart(6)}       ${r.queriesPerPoll}\n`,
    );
  }
  for (const r of results.slice(1)) {
    process.stdout.write(
      `\n${r.tasks} vs ${base.tasks} tasks: polls/s x${(r.pollsPerSecond / base.pollsPerSecond).toFixed(2)} ` +
        `(tasks x${(r.tasks / base.tasks).toFixed(0)}), p99 gap ratio ${base.gapRatio.p99} -> ${r.gapRatio.p99}, ` +
        `queries per poll ${base.queriesPerPoll} -> ${r.queriesPerPoll}\n`,
    );
  }
  const worst = results[results.length - 1];
  const ok = worst.gapRatio.p99 <= 1.5;
  process.stdout.write(`target (every task polled within 1.5x its interval at ${worst.tasks} tasks, p99): ${ok ? 'met' : 'NOT met'}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
