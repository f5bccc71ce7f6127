import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_VIDEO_PATH } from '../src/families/simulator-shared/sample-video';
import { alphaChannelBody, AlphaEmulatorServer, finishAfter, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { bytes, call, crashTestEnv, customer } from './support/process-api';
import { startVideoStore, TestVideoStore } from './support/s3-server';
import { describeEachDatabase, FreshDatabase, freshDatabase, queryDatabase } from './support/test-databases';

const SAMPLE = readFileSync(SAMPLE_VIDEO_PATH);

/** The provider forgets everything: its queries and its video links answer 404 from now on. */
function forget(fake: AlphaEmulatorServer): void {
  fake.inject('any', { http: 404 });
  fake.inject('file', { http: 404 });
}

jest.setTimeout(180_000);

for (const storeKind of ['file', 's3'] as const) {
  describeEachDatabase(`video archiving survives kill -9 (${storeKind})`, (kind) => {
    let database: FreshDatabase;
    let fake: AlphaEmulatorServer;
    let store: TestVideoStore;
    let gateway: GatewayProcess | undefined;

    beforeAll(async () => {
      database = await freshDatabase(kind);
      fake = await startAlphaEmulator();
      fake.videoBytes = SAMPLE;
      store = await startVideoStore(storeKind);
    });
    afterAll(async () => {
      await gateway?.crash();
      await fake?.close();
      await store?.close();
      await database?.drop();
    });

    const env = () => ({ ...crashTestEnv(database), ...store.env });
    const objects = () => store.objects();

    it('a copy interrupted by kill -9 is finished after a restart: archived, one object, the whole video', async () => {
      gateway = await startGatewayProcess(env());
      const apiKey = (await customer(gateway, { username: 'crash', quota: 1_000_000 })).key;
      expect((await call(gateway, ADMIN_TOKEN, 'POST', '/api/admin/channels', alphaChannelBody(fake))).status).toBe(201);

      // The provider's download stalls halfway: the archive is mid-copy when the process dies.
      fake.inject('file', { stallAfter: Math.floor(SAMPLE.length / 2) });
      fake.scriptNext(finishAfter(0));
      const submitted = await call(gateway, apiKey, 'POST', '/v1/videos', { model: 'alpha/v5', prompt: 'a storm' });
      expect(submitted.status).toBe(200);
      const taskId = submitted.body.id as string;
      await until('the archive download to start', () => fake.calls('file').length, { done: (downloads) => downloads > 0 });
      // The file store writes the copy to tmp/ as it comes: the crash waits until it is there. (The S3 store holds
      // a part in memory until it is full, 8 MiB, more than the whole video: nothing of the copy reaches the bucket.)
      if (store.kind === 'file')
        await until('the half-written temp file', () => objects(), { done: (names) => names.some((name) => name.startsWith('tmp/')) });
      // Done at the provider, its video not stored yet: not completed for its customer, nothing settled.
      expect((await call(gateway, apiKey, 'GET', `/v1/videos/${taskId}`)).body).toMatchObject({ status: 'in_progress', progress: 99 });
      await gateway.crash();
      gateway = undefined;
      const [row] = await queryDatabase<{ status: string; archive_status: string }>(
        database,
        `SELECT t.status, a.status AS archive_status FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
      );
      expect(row).toMatchObject({ status: 'SUCCESS', archive_status: 'pending' });
      expect((await objects()).filter((name) => name.startsWith('videos/'))).toEqual([]);
      // The file store's half-written temp file is there, never under the object's key.
      if (store.kind === 'file') expect((await objects()).filter((name) => name.startsWith('tmp/'))).toHaveLength(1);

      fake.clearFaults();
      gateway = await startGatewayProcess(env());
      await until(
        'the archive',
        async () =>
          (
            await queryDatabase<{ archive_status: string }>(
              database,
              `SELECT a.status AS archive_status FROM tasks t LEFT JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${taskId}'`,
            )
          )[0],
        { done: (state) => state.archive_status === 'archived' },
      );
      const stored = await objects();
      expect(stored.filter((name) => name.startsWith('videos/'))).toHaveLength(1);
      expect(stored.filter((name) => name.startsWith('thumbnails/'))).toHaveLength(1);
      expect(stored).toHaveLength(2); // no temp file, no second copy
      if (store.kind === 'file')
        expect(
          Buffer.compare(
            readFileSync(
              join(
                store.dir!,
                stored.find((name) => name.startsWith('videos/'))!,
              ),
            ),
            SAMPLE,
          ),
        ).toBe(0);

      // Served from the copy even once the provider forgot it.
      forget(fake);
      const content = await bytes(gateway, apiKey, `/v1/videos/${taskId}/content`);
      expect(content.status).toBe(200);
      expect(Buffer.compare(content.body, SAMPLE)).toBe(0);

      // Settled once, after the restart, on the stored video (the 3 s 320x180 sample): completed with that usage, one
      // charge and at most one refund (alpha/v5 is priced per clip: its seconds do not move the price).
      const answer = (await call(gateway, apiKey, 'GET', `/v1/videos/${taskId}`)).body;
      expect(answer).toMatchObject({ status: 'completed', usage: { seconds: 3, settled: 'delivered' } });
      const ledger = (await call(gateway, ADMIN_TOKEN, 'GET', `/api/admin/logs?task_id=${taskId}`)).body.data as Array<{
        type: string;
        quota: number;
      }>;
      const charges = ledger.filter((row) => row.type === 'consume');
      const refunds = ledger.filter((row) => row.type === 'refund');
      expect(charges).toHaveLength(1);
      expect(refunds.length).toBeLessThanOrEqual(1);
      expect(answer.usage.quota).toBe(-charges[0].quota - (refunds[0]?.quota ?? 0));
    });
  });
}
