import { binaryBody } from './support/binary-body';
import { startGateway, TestGateway } from './support/gateway';
import { ReplicateEmulatorServer, startReplicateEmulator } from './support/replicate-emulator';
import { describeOnSqlite, queryDatabase } from './support/test-databases';
import { until } from './support/until';

const MODEL = 'replicate-kling-v2-5-turbo-pro';
/** Replicate removes a prediction's output an hour after it ended. */
const OUTPUT_LIFETIME_MS = 3_600_000;

/**
 * A Replicate output the provider removes after its hour (the emulator and the gateway share one
 * clock, so the hour passes in a test): the gateway archived it as soon as the task ended and
 * serves it byte for byte from its store once Replicate's link is dead, and the prediction's
 * reported time is the task's provider usage, shown to the operator only.
 */
describeOnSqlite('hosted platforms: a Replicate output outlives its hour at the provider', (kind) => {
  let gw: TestGateway;
  let replicate: ReplicateEmulatorServer;
  let key = '';

  beforeAll(async () => {
    let now = () => Date.now();
    replicate = await startReplicateEmulator({ now: () => now() });
    gw = await startGateway(kind, { TASK_SYNC_INTERVAL_MS: '600000' });
    now = () => gw.clock.now();
    await gw.createChannel({
      name: 'replicate-main',
      platform: 'replicate',
      base_url: replicate.url,
      api_key: replicate.apiKey,
      models: [MODEL],
    });
    key = (await gw.createCustomer({ quota: 1_000_000 })).key;
  });
  afterAll(async () => {
    await gw?.close();
    await replicate?.close();
  });

  it('is archived at its end, served from the store after Replicate removed it, and its predict time is the provider usage', async () => {
    const submitted = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: MODEL, prompt: 'a paper lantern rising', seconds: '5' })
      .expect(200);
    const id = submitted.body.id as string;
    for (let round = 0; round < 6; round++) {
      gw.clock.advance(6_000);
      await gw.sync();
    }
    expect((await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.status).toBe('completed');
    await until(
      'the archive',
      async () =>
        (
          await queryDatabase<{ status: string }>(
            gw.database,
            `SELECT a.status FROM tasks t JOIN video_archives a ON a.task_row_id = t.id WHERE t.task_id = '${id}'`,
          )
        )[0],
      { done: (archive) => archive?.status === 'archived' },
    );

    // An hour later Replicate has removed the output: its link answers 404.
    gw.clock.advance(OUTPUT_LIFETIME_MS + 1_000);
    const [{ result_url: providerUrl }] = await queryDatabase<{ result_url: string }>(
      gw.database,
      `SELECT result_url FROM tasks WHERE task_id = '${id}'`,
    );
    expect((await fetch(providerUrl)).status).toBe(404);
    const content = await gw.http
      .get(`/v1/videos/${id}/content`)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, replicate.videoBytes)).toBe(0);

    const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(detail.provider_usage).toMatchObject({ unit: 'predict_seconds', amount: expect.any(Number) });
    expect(detail.provider_usage.amount).toBeGreaterThan(0);
    const flat = await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(JSON.stringify(flat.body)).not.toMatch(/predict|provider_usage/);
  });
});
