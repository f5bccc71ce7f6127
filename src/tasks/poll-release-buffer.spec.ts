import { PollReleaseBuffer } from './poll-release-buffer';
import type { TaskEntity } from './task.entity';
import type { PollRelease, TaskLeaseRepository } from './repositories/task-lease.repository';

const task = (id: number, status: TaskEntity['status'] = 'IN_PROGRESS') => ({ id, status, progress: 10 }) as TaskEntity;

describe('PollReleaseBuffer', () => {
  /** A repository whose releaseMany fails as often as `failures` says, then writes. */
  const setup = (failures: number) => {
    const written: Array<{ owner: string; status: string; ids: number[] }> = [];
    let left = failures;
    const releaseMany = jest.fn(async (owner: string, status: string, rows: PollRelease[]) => {
      if (left-- > 0) throw new Error('database is locked');
      written.push({ owner, status, ids: rows.map((row) => row.id) });
    });
    const logger = { error: jest.fn() };
    const buffer = new PollReleaseBuffer({ releaseMany } as unknown as TaskLeaseRepository, () => 1_000, logger);
    return { buffer, written, releaseMany, logger };
  };

  it('writes one statement per (owner, status) group', async () => {
    const { buffer, written } = setup(0);
    await buffer.add(task(1), 'a', { progress: 20 });
    await buffer.add(task(2), 'a', { progress: 30 });
    await buffer.add(task(3, 'QUEUED'), 'a', {});
    await buffer.flush();
    expect(written).toEqual([
      { owner: 'a', status: 'IN_PROGRESS', ids: [1, 2] },
      { owner: 'a', status: 'QUEUED', ids: [3] },
    ]);
  });

  it('logs a failed flush, and later flushes still write (the failed rows once more)', async () => {
    const { buffer, written, logger } = setup(1);
    await buffer.add(task(1), 'a', {});
    await expect(buffer.flush()).resolves.toBeUndefined();
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('database is locked'));
    expect(written).toEqual([]);

    await buffer.add(task(2), 'a', {});
    await buffer.flush();
    expect(written).toEqual([{ owner: 'a', status: 'IN_PROGRESS', ids: [1, 2] }]);
  });

  it('retries a row once only, and a newer write of the same task replaces the failed one', async () => {
    const { buffer, written, releaseMany, logger } = setup(2);
    await buffer.add(task(1), 'a', { progress: 20 });
    await buffer.flush();
    await buffer.flush();
    expect(logger.error).toHaveBeenCalledTimes(2);
    await buffer.flush();
    expect(releaseMany).toHaveBeenCalledTimes(2);
    expect(written).toEqual([]);

    const again = setup(1);
    await again.buffer.add(task(7), 'b', { progress: 20 });
    const failing = again.buffer.flush();
    await again.buffer.add(task(7), 'b', { progress: 40 });
    await failing;
    await again.buffer.flush();
    expect(again.written).toEqual([{ owner: 'b', status: 'IN_PROGRESS', ids: [7] }]);
    expect(again.releaseMany.mock.calls[1][2]).toEqual([expect.objectContaining({ id: 7, progress: 40 })]);
  });

  it('flushes by itself once 200 writes have gathered', async () => {
    const { buffer, written } = setup(0);
    for (let id = 1; id <= 200; id++) await buffer.add(task(id), 'a', {});
    expect(written).toHaveLength(1);
    expect(written[0].ids).toHaveLength(200);
  });
});
