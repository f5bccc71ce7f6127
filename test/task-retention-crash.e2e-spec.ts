import { readFileSync } from 'node:fs';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { alphaChannelBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { call, crashTestEnv, customer } from './support/process-api';
import { startVideoStore, TestS3Server, TestVideoStore } from './support/s3-server';
import { describeEachDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);
const OLD_TASKS = 3;

jest.setTimeout(240_000);

describeEachDatabase('TASK_RETENTION survives kill -9 in the middle of a prune (S3 store)', (kind) => {
  let database: FreshDatabase;
  let fake: AlphaEmulatorServer;
  let store: TestVideoStore;
  let s3: TestS3Server;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    fake = await startAlphaEmulator();
    fake.videoBytes = SAMPLE;
    store = await startVideoStore('s3');
    s3 = store.s3!;
  });
  afterAll(async () => {
    await gateway?.crash();
    await fake?.close();
    await store?.close();
    await database?.drop();
  });

  const env = () => ({ ...crashTestEnv(database), TASK_RETENTION: '2s', ...store.env });
  const taskRows = (taskIds: string[]) =>
    queryDatabase<{ task_id: string; deleted_at: unknown; archive_status: string | null }>(
      database,
      `SELECT t.task_id, t.deleted_at, a.status AS archive_status FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id ` +
        `WHERE t.task_id IN (${taskIds.map((id) => `'${id}'`).join(', ')})`,
    );
  const objects = () => store.objects();

  it('restarted, it finishes the prune: no object left behind, no task shown without its video, the running task kept', async () => {
    gateway = await startGatewayProcess(env());
    // Every removal is seen by the store; after the first, the store hangs: the prune is stuck halfway when the process dies.
    // (Set once started: the start-up check of the store writes and removes an object of its own.)
    const deletesBefore = s3.deletesSeen;
    s3.holdDeletesAfter(1);
    const apiKey = (await customer(gateway, { username: 'prune', quota: 1_000_000 })).key;
    expect((await call(gateway, ADMIN_TOKEN, 'POST', '/api/admin/channels', alphaChannelBody(fake))).status).toBe(201);

    const old: string[] = [];
    for (let i = 0; i < OLD_TASKS; i++) {
      fake.scriptNext(finishAfter(0));
      const submitted = await call(gateway, apiKey, 'POST', '/v1/videos', { model: 'alpha/v5', prompt: `a storm ${i}` });
      expect(submitted.status).toBe(200);
      old.push(submitted.body.id);
    }
    fake.scriptNext([5]);
    const running = (await call(gateway, apiKey, 'POST', '/v1/videos', { model: 'alpha/v5', prompt: 'a long storm' })).body.id as string;

    // Archived first (each a video and a thumbnail), then the prune starts once they are 2 s old and hangs at the second removal.
    await until('the first removal and a held one', () => s3.deletesSeen, {
      done: (deletes) => deletes >= deletesBefore + 2,
      timeoutMs: 90_000,
    });
    await gateway.crash();
    gateway = undefined;

    const midway = await taskRows(old);
    // Nothing was deleted from the database yet, but the pruned tasks are already hidden from their owner.
    expect(midway.length).toBe(OLD_TASKS);
    expect(midway.filter((row) => row.deleted_at !== null).length).toBeGreaterThanOrEqual(1);
    // Every task still shown has its video and thumbnail; the prune's first removal is gone.
    const shownArchived = midway.filter((row) => row.deleted_at === null && row.archive_status === 'archived').length;
    const left = (await objects()).length;
    expect(left).toBeGreaterThanOrEqual(2 * shownArchived);
    expect(left).toBeLessThan(2 * OLD_TASKS);

    s3.holdDeletesAfter(null);
    gateway = await startGatewayProcess(env());
    // The crashed claims run out (TASK_LEASE_MS) and the next round finishes the job.
    await until('the old tasks gone', () => taskRows(old), { done: (rows) => rows.length === 0, timeoutMs: 90_000 });
    await until('their objects gone', () => objects(), { done: (names) => names.length === 0, timeoutMs: 90_000 });
    for (const id of old) expect((await call(gateway, apiKey, 'GET', `/v1/videos/${id}`)).status).toBe(404);
    const kept = await call(gateway, apiKey, 'GET', `/v1/videos/${running}`);
    expect(kept.status).toBe(200);
    expect(kept.body.status).toBe('in_progress');
    // Every charge is still in the ledger.
    const ledger = await queryDatabase<{ n: number | string }>(
      database,
      `SELECT COUNT(*) AS n FROM logs WHERE task_id IN (${[...old, running].map((id) => `'${id}'`).join(', ')})`,
    );
    expect(Number(ledger[0].n)).toBe(OLD_TASKS + 1);
  });
});
