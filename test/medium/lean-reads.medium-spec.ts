import { QueryFailedError } from 'typeorm';
import { ApiKeyEntity } from '../../src/auth/api-key.entity';
import { UserEntity } from '../../src/auth/user.entity';
import { JoinedShape, LeanReads } from '../../src/database/lean-reads';
import { isSyncRowReader } from '../../src/database/sqlite-data-source';
import { TaskEntity } from '../../src/tasks/task.entity';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

describe('LeanReads (service tier, SQLite read connection)', () => {
  let t: ServiceTestContext;
  let reads: LeanReads;
  beforeAll(async () => {
    t = await createServiceTestModule();
    reads = new LeanReads(t.dataSource);
  });
  afterAll(() => t.close());

  it('makes the entity TypeORM makes of the same row: values, transformers, prototype, property order', async () => {
    const user = await t.createUser(1_000);
    const task = await t.createTask(user.id, {
      status: 'SUCCESS',
      quota: 4_500,
      request: { prompt: 'a lighthouse at dusk', duration: 5, nested: { list: [1, 'two', null] } },
      properties: { input: 'x' },
      upstreamResponse: { Resp: { status: 'succeeded' } },
      resultUrl: 'https://example.test/v.mp4',
      outputSize: '1280x720',
      finishTime: 1_795_750_000_123,
    });
    // The SQLite file's data source: its reads go through the read-only connection, synchronously.
    expect(isSyncRowReader(t.dataSource.driver)).toBe(true);
    const byTypeorm = await t.dataSource.manager.findOneByOrFail(TaskEntity, { id: task.id });
    const lean = await reads.findOne(TaskEntity, 'task_id = ? AND user_id = ? AND deleted_at IS NULL', [task.taskId, user.id]);

    expect(lean).toEqual(byTypeorm);
    expect(Object.getPrototypeOf(lean)).toBe(TaskEntity.prototype);
    expect(Object.keys(lean!)).toEqual(Object.keys(byTypeorm));
    expect(JSON.stringify(lean)).toBe(JSON.stringify(byTypeorm));
    expect(await reads.findOne(UserEntity, 'id = ?', [user.id])).toEqual(
      await t.dataSource.manager.findOneByOrFail(UserEntity, { id: user.id }),
    );
  });

  it('reads only the columns asked for, each as the whole entity has it', async () => {
    const user = await t.createUser(2_500);
    const whole = await t.dataSource.manager.findOneByOrFail(UserEntity, { id: user.id });
    const some = await reads.findOne(UserEntity, 'id = ?', [user.id], ['quota', 'group']);
    expect({ ...some }).toEqual({ quota: whole.quota, group: whole.group });
    expect(Object.getPrototypeOf(some)).toBe(UserEntity.prototype);
    // The same clause with every column is a read of its own.
    expect(await reads.findOne(UserEntity, 'id = ?', [user.id])).toEqual(whole);
  });

  it('null when no row matches; a failing statement is TypeORM’s QueryFailedError', async () => {
    expect(await reads.findOne(TaskEntity, 'task_id = ? AND user_id = ?', ['task_none', 1])).toBeNull();
    await expect(reads.findOne(TaskEntity, 'no_such_column = ?', [1])).rejects.toBeInstanceOf(QueryFailedError);
  });

  it('reads a row and the row its ON clause joins in one statement, each as TypeORM makes it; null for no joined row', async () => {
    const user = await t.createUser(7_700);
    const key = await t.dataSource.manager.save(
      t.dataSource.manager.create(ApiKeyEntity, {
        userId: user.id,
        name: 'joined',
        keyHash: `hash-${user.id}`,
        keyHint: 'sk-joined',
        models: null,
        status: 'active',
        createdAt: 1_795_750_000_000,
        quotaLimit: 9_000,
        usedQuota: 1_200,
      }),
    );
    const shape: JoinedShape<UserEntity, ApiKeyEntity> = {
      row: { entity: UserEntity, where: 'r.id = ?', properties: ['quota', 'group'] },
      // `id` is both tables' column: each side's comes back as its own.
      joined: { entity: ApiKeyEntity, on: 'j.id = ?', properties: ['id', 'quotaLimit', 'usedQuota', 'budget'] },
    };
    const read = (userId: number, keyId: number) => reads.findOneJoined(shape, [userId], [keyId]);
    const found = await read(user.id, key.id);
    expect({ ...found!.row }).toEqual({ quota: 7_700, group: user.group });
    expect(Object.getPrototypeOf(found!.row)).toBe(UserEntity.prototype);
    expect({ ...found!.joined }).toEqual({ id: key.id, quotaLimit: 9_000, usedQuota: 1_200, budget: null });
    expect(Object.getPrototypeOf(found!.joined)).toBe(ApiKeyEntity.prototype);

    const noKey = await read(user.id, key.id + 1_000);
    expect({ ...noKey!.row }).toEqual({ quota: 7_700, group: user.group });
    expect(noKey!.joined).toBeNull();
    expect(await read(user.id + 1_000, key.id)).toBeNull();
  });
});
