import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../src/database/transaction-runner';
import { TaskEntity } from '../src/tasks/task.entity';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

/**
 * Reads never see another unit of work's uncommitted rows (on SQLite they run on a read-only
 * connection of their own), and they do see every commit that finished before them.
 */
describeEachDatabase('read isolation', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let counter = 0;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(fake));
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const taskRow = (userId: number, status: TaskEntity['status'], idempotencyKey: string | null = null): Partial<TaskEntity> => {
    const now = Date.now();
    return {
      taskId: `task_isolation${kind}${String(++counter).padStart(18, '0')}`,
      userId,
      apiKeyId: null,
      group: 'default',
      platform: 'alpha',
      model: 'alpha/v6',
      upstreamModel: 'v6',
      action: 'textGenerate',
      channelId: null,
      status,
      progress: 0,
      quota: 0,
      request: { prompt: 'an open transaction' },
      pollFailures: 0,
      idempotencyKey,
      requestHash: idempotencyKey ? 'x'.repeat(64) : null,
      createdAt: now,
      updatedAt: now,
    };
  };

  /** Opens a transaction that inserts `rows`, and keeps it open until `end` is called (rollback or commit). */
  async function openTransaction(rows: Array<Partial<TaskEntity>>): Promise<{ end(outcome: 'rollback' | 'commit'): Promise<void> }> {
    let inserted!: () => void;
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
    let finish!: (outcome: 'rollback' | 'commit') => void;
    const finished = new Promise<'rollback' | 'commit'>((resolve) => (finish = resolve));
    const done = gw.app
      .get(TransactionRunner)
      .run(async (manager: EntityManager) => {
        for (const row of rows) await manager.insert(TaskEntity, row as never);
        inserted();
        if ((await finished) === 'rollback') throw new Error('rolled back, as a refused (402) submit is');
      })
      .catch((error: Error) => {
        if (!/rolled back/.test(error.message)) throw error;
      });
    await insertedNow;
    return {
      async end(outcome) {
        finish(outcome);
        await done;
      },
    };
  }

  it("a GET during another unit of work's open transaction does not see its task, and sees it right after the commit", async () => {
    const { userId, key } = await gw.createCustomer({ quota: 1_000_000 });
    const row = taskRow(userId, 'IN_PROGRESS');
    const open = await openTransaction([row]);
    try {
      await gw.http.get(`/v1/videos/${row.taskId}`).set('Authorization', `Bearer ${key}`).expect(404);
      await gw.http.get(`/v1/video/generations/${row.taskId}`).set('Authorization', `Bearer ${key}`).expect(404);
    } finally {
      await open.end('commit');
    }
    const { body } = await gw.http.get(`/v1/videos/${row.taskId}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(body).toMatchObject({ id: row.taskId, status: 'in_progress' });
  });

  it('the idempotency lookup does not see a task whose transaction then rolls back: the same key makes a new task, charged once', async () => {
    const { userId, key } = await gw.createCustomer({ quota: 1_000_000 });
    const idempotencyKey = `isolation-${kind}-${counter}`;
    const doomed = taskRow(userId, 'SUBMITTING', idempotencyKey);
    const open = await openTransaction([doomed]);
    // Had it seen the uncommitted task, this submit would answer 409 (its first request still in flight).
    const submit = gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idempotencyKey)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5 })
      .then((res) => res);
    // The submit reads, then waits for the writer (SQLite) or the uncommitted key's row lock (MySQL).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await open.end('rollback');
    const res = await submit;
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(doomed.taskId);
    const again = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', idempotencyKey)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5 })
      .expect(200);
    expect(again.body.id).toBe(res.body.id);
    const { body: logs } = await gw.admin.get(`/api/admin/logs?user_id=${userId}`).expect(200);
    expect(logs.data.filter((log: { type: string }) => log.type === 'consume')).toHaveLength(1);
  });
});
