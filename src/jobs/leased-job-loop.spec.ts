import { SchedulerRegistry } from '@nestjs/schedule';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { JobMetrics } from './job-metrics.service';
import { JobRunner } from './job-runner.service';
import type { LeasedJob } from './leased-job';
import { LeasedJobLoop } from './leased-job-loop';

interface Row {
  id: number;
  dueAt: number;
  owner: string | null;
  failures: number;
  key: number;
}

const quietLogger = { error: jest.fn(), warn: jest.fn() };

/** A fake job over an in-memory table that claims like the repositories do: due rows, oldest first, leased by moving their due time. */
class FakeJob implements LeasedJob<Row> {
  name = 'fake-job';
  intervalMs = 0;
  batchSize = 10;
  maxItemsPerRound = 1_000;
  concurrency = 4;
  now = 1_000;
  claims: number[] = [];
  handled: number[] = [];
  handedBack: number[] = [];
  released: Array<{ id: number; failures: number; dueAt: number }> = [];
  inFlight = 0;
  peakInFlight = 0;
  failing = new Set<number>();
  /** While set, every item waits for it. */
  gate: Promise<void> | null = null;
  failClaimAt: number | null = null;
  rounds = { opened: 0, closed: 0 };
  retry?: LeasedJob<Row>['retry'];
  keyOf?: (row: Row) => number;
  limitFor?: (key: number) => number;
  readonly rows: Row[];

  constructor(count: number) {
    this.rows = Array.from({ length: count }, (_, i) => ({ id: i + 1, dueAt: i, owner: null, failures: 0, key: i % 2 }));
  }

  async openRound(): Promise<void> {
    this.rounds.opened++;
  }

  async closeRound(): Promise<void> {
    this.rounds.closed++;
  }

  async claim(limit: number): Promise<Row[]> {
    this.claims.push(limit);
    if (this.failClaimAt === this.claims.length) throw new Error('database gone');
    const due = this.rows
      .filter((row) => row.dueAt <= this.now)
      .sort((a, b) => a.dueAt - b.dueAt)
      .slice(0, limit);
    for (const row of due) Object.assign(row, { owner: 'me', dueAt: this.now + 60_000 });
    return due.map((row) => ({ ...row }));
  }

  async handle(item: Row): Promise<string> {
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    try {
      await (this.gate ?? Promise.resolve());
      await new Promise((resolve) => setImmediate(resolve));
      if (this.failing.has(item.id)) throw new Error(`item ${item.id} broke`);
      this.handled.push(item.id);
      this.row(item.id).owner = null;
      return 'polled';
    } finally {
      this.inFlight--;
    }
  }

  async handBack(item: Row): Promise<void> {
    this.handedBack.push(item.id);
    Object.assign(this.row(item.id), { owner: null, dueAt: this.now });
  }

  describe(item: Row): string {
    return `row ${item.id}`;
  }

  private row(id: number): Row {
    return this.rows.find((row) => row.id === id)!;
  }
}

function setUp(job: FakeJob, random = () => 0.5) {
  const registry = new MetricsRegistry();
  const metrics = new JobMetrics(registry);
  const loop = new LeasedJobLoop(job, metrics, () => job.now, { logger: quietLogger, random });
  const value = async (metric: 'items' | 'errors' | 'rounds', labels: Record<string, string>) => {
    const found = (await metrics[metric].get()).values.find((entry) =>
      Object.entries(labels).every(([k, v]) => (entry.labels as Record<string, unknown>)[k] === v),
    );
    return found?.value ?? 0;
  };
  return { loop, metrics, registry, value };
}

describe('LeasedJobLoop', () => {
  it('claims in batches until a short batch, keeping about one batch queued, and handles every item', async () => {
    const job = new FakeJob(25);
    const { loop, value } = setUp(job);
    expect(await loop.runRound()).toBe(25);
    expect(job.claims).toEqual([10, 10, 10]);
    expect(job.handled.sort((a, b) => a - b)).toEqual(job.rows.map((row) => row.id));
    expect(job.peakInFlight).toBe(4);
    expect(job.rounds).toEqual({ opened: 1, closed: 1 });
    expect(await value('items', { job: 'fake-job', outcome: 'polled' })).toBe(25);
    expect(await value('rounds', { job: 'fake-job', outcome: 'ok' })).toBe(1);
    expect(await loop.runRound()).toBe(0); // everything is leased or done
  });

  it('stops a round at maxItemsPerRound, claiming only what is left of it', async () => {
    const job = new FakeJob(25);
    job.maxItemsPerRound = 15;
    const { loop } = setUp(job);
    expect(await loop.runRound()).toBe(15);
    expect(job.claims).toEqual([10, 5]);
  });

  it('joins a running round instead of starting a second', async () => {
    const job = new FakeJob(5);
    const { loop } = setUp(job);
    const [a, b] = await Promise.all([loop.runRound(), loop.runRound()]);
    expect([a, b]).toEqual([5, 5]);
    expect(job.rounds.opened).toBe(1);
  });

  it('isolates a failing item: the batch goes on, the item is counted and backed off', async () => {
    const job = new FakeJob(12);
    job.failing.add(3);
    job.failing.add(7);
    job.retry = {
      intervalMs: () => 1_000,
      failures: (row: Row) => row.failures,
      minDelayMs: (error: unknown) => (String(error).includes('item 7') ? 30_000 : 0),
      later: async (row: Row, failures: number, dueAt: number) => void job.released.push({ id: row.id, failures, dueAt }),
    };
    job.rows[2].failures = 2; // row 3 failed twice before
    const { loop, value } = setUp(job, () => 1);
    expect(await loop.runRound()).toBe(12);
    expect(job.handled).toHaveLength(10);
    expect(job.released).toEqual([
      // exponential: 1 s * 2^3 with the jitter at its top
      { id: 3, failures: 3, dueAt: job.now + 8_000 },
      // never sooner than the error asks (Retry-After)
      { id: 7, failures: 1, dueAt: job.now + 30_000 },
    ]);
    expect(await value('items', { outcome: 'error' })).toBe(2);
    expect(await value('items', { outcome: 'polled' })).toBe(10);
    expect(await value('errors', { stage: 'item' })).toBe(2);
    expect(await value('rounds', { outcome: 'ok' })).toBe(1);
  });

  it('without a retry policy a failing item is logged and left to its lease; a failing back-off write is counted', async () => {
    const job = new FakeJob(3);
    job.failing.add(2);
    const { loop, value } = setUp(job);
    expect(await loop.runRound()).toBe(3);
    expect(job.handled.sort()).toEqual([1, 3]);
    expect(job.rows[1].owner).toBe('me');

    const other = new FakeJob(2);
    other.failing.add(1);
    other.retry = { intervalMs: () => 1_000, failures: () => 0, later: () => Promise.reject(new Error('write failed')) };
    const second = setUp(other);
    expect(await second.loop.runRound()).toBe(2);
    expect(other.handled).toEqual([2]);
    expect(await second.value('errors', { stage: 'retry' })).toBe(1);
    expect(await value('errors', { stage: 'item' })).toBe(1);
  });

  it('a failing claim fails the round after the items already claimed are done; the next round runs', async () => {
    const job = new FakeJob(25);
    job.failClaimAt = 2;
    const { loop, value } = setUp(job);
    await expect(loop.runRound()).rejects.toThrow('database gone');
    expect(job.handled).toHaveLength(10);
    expect(job.rounds).toEqual({ opened: 1, closed: 1 });
    expect(await value('rounds', { outcome: 'failed' })).toBe(1);
    expect(await value('errors', { stage: 'claim' })).toBe(1);
    // the scheduler's tick swallows a failed round (it is logged and counted) ...
    job.failClaimAt = 4;
    await loop.tick();
    expect(await value('rounds', { outcome: 'failed' })).toBe(2);
    // ... and the next round goes on with what is due
    job.failClaimAt = null;
    expect(await loop.runRound()).toBe(5);
    expect(job.handled).toHaveLength(25);
  });

  it('graceful shutdown: claims no more, lets items in flight finish, hands the queued rest back', async () => {
    const job = new FakeJob(30);
    let open!: () => void;
    job.gate = new Promise((resolve) => (open = resolve));
    const { loop, value } = setUp(job);
    const round = loop.runRound();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(job.inFlight).toBe(4);
    expect(job.claims).toEqual([10]); // the next batch waits until fewer than one batch is queued locally
    const stopped = loop.stop();
    open();
    await stopped;
    expect(await round).toBe(10);
    expect(job.handled).toHaveLength(4);
    expect(job.handedBack).toHaveLength(6);
    expect(job.claims).toEqual([10]);
    expect(job.rows.filter((row) => job.handedBack.includes(row.id)).every((row) => row.owner === null && row.dueAt === job.now)).toBe(
      true,
    );
    expect(await value('items', { outcome: 'handed_back' })).toBe(6);
    // after stop, neither the scheduler nor anything else starts a round
    await loop.tick();
    expect(await loop.runRound()).toBe(0);
    expect(job.claims).toEqual([10]);
  });

  it('bounds each key by limitFor', async () => {
    const job = new FakeJob(20);
    let active = 0;
    let peak = 0;
    job.keyOf = (row: Row) => row.key;
    job.limitFor = (key: number) => (key === 1 ? 1 : 4);
    const handle = job.handle.bind(job);
    job.handle = async (row: Row) => {
      if (row.key === 1) peak = Math.max(peak, ++active);
      try {
        return await handle(row);
      } finally {
        if (row.key === 1) active--;
      }
    };
    const { loop } = setUp(job);
    expect(await loop.runRound()).toBe(20);
    expect(peak).toBe(1);
    expect(job.handled).toHaveLength(20);
  });
});

describe('JobRunner', () => {
  it('schedules the jobs with an interval, reports their lag, and stops them all at shutdown', async () => {
    const registry = new MetricsRegistry();
    const scheduler = new SchedulerRegistry();
    const clock = { now: () => 5_000 };
    const runner = new JobRunner(new JobMetrics(registry), scheduler, clock);
    const scheduled = Object.assign(new FakeJob(3), {
      name: 'scheduled',
      intervalMs: 60_000,
      oldestDueAt: async (now: number) => now - 2_500,
    });
    const off = Object.assign(new FakeJob(3), { name: 'off', intervalMs: 0 });
    const loops = [runner.register(scheduled), runner.register(off)];
    expect(() => runner.register(off)).toThrow(/registered twice/);
    runner.onApplicationBootstrap();
    try {
      expect(scheduler.getIntervals()).toEqual(['scheduled']);
      expect(await registry.metrics()).toMatch(/gateway_job_lag_seconds\{job="scheduled"\} 2.5/);
    } finally {
      await runner.beforeApplicationShutdown();
    }
    expect(scheduler.getIntervals()).toEqual([]);
    expect(loops.every((loop) => loop.stopped)).toBe(true);
  });
});
