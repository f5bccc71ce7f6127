import { MetricsRegistry } from '../../src/metrics/metrics-registry';
import { TaskEntity } from '../../src/tasks/task.entity';
import { createWithFakeChannel, type ServiceTestContext } from './support/service-test-module';
import { UpstreamError } from '../../src/upstream/upstream-adapter';

/**
 * The job runner on a real claimed job (the task sync) on SQLite: leases in the database, one
 * item's failure isolated and backed off, graceful shutdown, metrics.
 */
describe('JobRunner (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  let price: number;
  beforeAll(async () => ({ t, price } = await createWithFakeChannel()));
  afterAll(() => t.close());

  const submit = async () => t.submitFake(await t.createUser(10 * price));
  const stored = (id: number) => t.dataSource.manager.findOneByOrFail(TaskEntity, { id });

  it('claims with a lease, isolates a failing item, backs it off past Retry-After and frees every lease', async () => {
    const broken = await submit();
    const healthy = await submit();
    t.adapter.pollOf.set(broken.taskId, new UpstreamError('transient', 'upstream 502', { retryAfterSeconds: 30 }));
    t.adapter.pollOf.set(healthy.taskId, { state: 'succeeded', videoUrl: 'https://cdn.example.com/v.mp4', raw: {} });
    t.clock.advance(2_000);

    expect(await t.sync.syncDueTasks()).toBe(2);
    expect(await stored(healthy.id)).toMatchObject({ status: 'SUCCESS', leaseOwner: null });
    const backedOff = await stored(broken.id);
    expect(backedOff).toMatchObject({ status: 'NOT_START', pollFailures: 1, leaseOwner: null });
    expect(backedOff.nextPollAt!).toBeGreaterThanOrEqual(t.clock.now() + 30_000);
    // Not due again before its back-off: the next round claims nothing.
    expect(await t.sync.syncDueTasks()).toBe(0);

    const metrics = await t.module.get(MetricsRegistry).metrics();
    expect(metrics).toMatch(/gateway_job_errors_total\{[^}]*job="task-sync"[^}]*\} 1\b/);
  });

  it('a second registration of a job name is refused; after shutdown no round claims anything', async () => {
    expect(() => t.runner.register(t.sync)).toThrow('job task-sync is registered twice');
    const task = await submit();
    t.clock.advance(2_000);
    await t.runner.beforeApplicationShutdown();
    expect(await t.sync.syncDueTasks()).toBe(0);
    expect(await stored(task.id)).toMatchObject({ status: 'NOT_START', leaseOwner: null });
  });
});
