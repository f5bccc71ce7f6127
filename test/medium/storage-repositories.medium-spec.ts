import { OutputExpiry } from '../../src/storage/output-expiry';
import { VideoArchiveEntity } from '../../src/storage/video-archive.entity';
import { VideoArchiveRepository } from '../../src/storage/video-archive.repository';
import { TaskQueries } from '../../src/tasks/task-queries.service';
import { TaskStateRepository } from '../../src/tasks/repositories/task-state.repository';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/**
 * What the video store and the dashboard read of short-lived outputs and providers' costs, on each
 * database: the archive of a short-lived output records when its link dies and is claimed first; the
 * providers' reported costs are summed per channel and unit (JSON read in SQL, each database its way).
 */
describeEachDatabase('short-lived outputs and provider usage (service tier)', (kind) => {
  let t: ServiceTestContext;
  let archives: VideoArchiveRepository;
  let queries: TaskQueries;
  let repository: TaskStateRepository;
  let userId: number;
  beforeAll(async () => {
    t = await createServiceTestModule({
      database: kind,
      providers: [OutputExpiry, VideoArchiveRepository, TaskQueries],
      entities: [VideoArchiveEntity],
    });
    archives = t.module.get(VideoArchiveRepository);
    queries = t.module.get(TaskQueries);
    repository = t.module.get(TaskStateRepository);
    userId = (await t.createUser(0)).id;
  });
  afterAll(() => t.close());

  it("a task's end records when its provider's link dies (finish time + the adapter's output lifetime); none for a provider that keeps it", async () => {
    const succeed = async () => {
      const task = await t.createTask(userId, { status: 'IN_PROGRESS' });
      const plan = t.transitions.planPoll(task, { state: 'succeeded', videoUrl: 'http://127.0.0.1:1/v.mp4', raw: {} }, 50);
      expect(await t.transitions.applyPlan(task, plan)).toBe('SUCCESS');
      return { task, archive: (await archives.findOf(task.id))! };
    };
    const kept = await succeed();
    expect(kept.archive).toMatchObject({ status: 'pending', expiresAt: null });

    Object.defineProperty(t.adapter, 'outputExpiresAfterMs', { value: 5_000, configurable: true });
    try {
      const { task, archive } = await succeed();
      expect(archive.expiresAt).toBe(task.finishTime! + 5_000);
      expect(await archives.summaryOf(task.id)).toMatchObject({ expiresAt: task.finishTime! + 5_000, videoExpired: false });
      t.clock.advance(5_000);
      expect(await archives.summaryOf(task.id)).toMatchObject({ videoExpired: true });
      expect((await archives.summariesOf([task.id])).get(task.id)).toMatchObject({ videoExpired: true });
    } finally {
      delete (t.adapter as { outputExpiresAfterMs?: number }).outputExpiresAfterMs;
    }
  });

  it('claims short-lived outputs first, soonest to expire first, then the rest by due time; nothing not yet due', async () => {
    // Settle whatever the previous test left due.
    const now = t.clock.now();
    for (const archive of await archives.claimDue('drain', now, now + 1, 100))
      await archives.markFailed(archive.taskRowId, 'drain', 'drained', now);
    const archiveOf = async (dueAt: number, expiresAt: number | null) => {
      const task = await t.createTask(userId, { status: 'SUCCESS', finishTime: now });
      await t.transactions.run((manager) => archives.recordDue(manager, task.id, dueAt, expiresAt));
      return task.id;
    };
    const oldest = await archiveOf(now - 60_000, null);
    const later = await archiveOf(now, now + 60_000);
    const sooner = await archiveOf(now - 1_000, now + 10_000);
    await archiveOf(now + 1_000, now + 5_000);
    const lease = now + 30_000;
    expect((await archives.claimDue('first', now, lease, 1)).map((archive) => archive.taskRowId)).toEqual([sooner]);
    expect((await archives.claimDue('rest', now, lease, 10)).map((archive) => archive.taskRowId)).toEqual([later, oldest]);
    expect(await archives.claimDue('again', now, lease, 10)).toEqual([]);
  });

  it("sums per channel what customers paid (charges that stand) and the providers' reported costs per unit", async () => {
    t.clock.advance(1_000);
    const from = t.clock.now();
    const task = (
      channelId: number | null,
      status: 'SUCCESS' | 'FAILURE' | 'IN_PROGRESS' | 'REJECTED',
      quota: number,
      usage?: [string, number],
    ) =>
      t.createTask(userId, { channelId, status, quota }).then(async (created) => {
        if (usage && channelId !== null)
          await t.transactions.run((manager) =>
            repository.recordProviderUsage(manager, {
              taskRowId: created.id,
              attempt: 0,
              channelId,
              usage: { unit: usage[0] as 'credits', amount: usage[1] },
              at: from,
            }),
          );
        return created;
      });
    await task(1, 'SUCCESS', 500, ['credits', 120]);
    await task(1, 'SUCCESS', 500, ['credits', 80.5]);
    await task(1, 'FAILURE', 500, ['credits', 30]);
    await task(1, 'IN_PROGRESS', 500);
    await task(2, 'SUCCESS', 700, ['usd_ticks', 500_000_000]);
    await task(2, 'SUCCESS', 700, ['usd_ticks', 1_500_000_000]);
    await task(2, 'REJECTED', 700);
    await task(null, 'REJECTED', 900);
    const { charged, usage } = await queries.chargedAndProviderUsageByChannel(from);
    expect(charged).toEqual(
      new Map([
        [1, 1_000 + 500],
        [2, 1_400],
      ]),
    );
    const byKey = Object.fromEntries(usage.map((row) => [`${row.channelId}:${row.unit}`, { amount: row.amount, tasks: row.tasks }]));
    expect(byKey).toEqual({
      '1:credits': { amount: 230.5, tasks: 3 },
      '2:usd_ticks': { amount: 2_000_000_000, tasks: 2 },
    });
  });
});
