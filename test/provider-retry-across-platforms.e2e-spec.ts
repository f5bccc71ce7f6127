import { binaryBody } from './support/binary-body';
import type { FalEmulatorServer } from './support/fal-emulator';
import type { TestGateway } from './support/gateway';
import type { KlingEmulatorServer } from './support/kling-emulator';
import {
  FAL_ENDPOINT,
  KLING_ON_TWO_PLATFORMS,
  KlingOnTwoPlatforms,
  PER_SECOND,
  startKlingOnTwoPlatforms,
} from './support/kling-on-two-platforms';
import { attemptsOf, ledgerOf } from './support/task-trail';
import { describeEachDatabase } from './support/test-databases';

const QUOTA = 1_000_000;
const CHARGE = 10 * PER_SECOND;
const MODEL = KLING_ON_TWO_PLATFORMS;
const BODY = { model: MODEL.id, prompt: 'a lighthouse at dusk', seconds: '10', size: '1280x720' };

/**
 * Failover after acceptance across platforms: fal's channel outranks Kling's for a model routed on
 * both; a task fal accepted and then failed for its own reason (a runner error) runs again on Kling,
 * its request built by Kling's family from the client's kept request, under its first id and its one
 * charge. Money, so on every database.
 */
describeEachDatabase('provider retry across platforms', (kind) => {
  let setup: KlingOnTwoPlatforms;
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let fal: FalEmulatorServer;
  let klingId: number;
  let falId: number;

  beforeAll(async () => {
    setup = await startKlingOnTwoPlatforms(kind, 'fal');
    ({ gw, kling, fal, klingId, falId } = setup);
  });
  afterAll(() => setup?.close());

  const ledger = (taskId: string) => ledgerOf(gw, taskId);
  const timeline = (taskId: string) => attemptsOf(gw, taskId);
  const status = async (key: string, id: string) =>
    (await gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
  const rounds = async (n: number) => {
    for (let round = 0; round < n; round++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
  };

  it("a runner error on fal: the task completes on Kling under its first id with Kling's request, charged once, both attempts in the timeline", async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    fal.failNextRequest();
    const res = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(BODY).expect(200);
    const id = res.body.id as string;
    expect(fal.submits.at(-1)).toMatchObject({ endpoint: FAL_ENDPOINT, input: { prompt: BODY.prompt, duration: '10' } });
    expect(kling.creates).toHaveLength(0);

    await rounds(3);
    expect(kling.creates).toHaveLength(1);
    expect(kling.creates[0].body).toMatchObject({ model_name: 'kling-v2-5-turbo', prompt: BODY.prompt, duration: '10', mode: 'std' });
    await rounds(6);
    const done = await status(key, id);
    expect(done).toMatchObject({ id, model: MODEL.id, status: 'completed' });
    // fal's own words and addresses never reach the client.
    expect(JSON.stringify(done)).not.toContain('10.0.0.7');
    const content = await gw.http
      .get(`/v1/videos/${id}/content`)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, kling.videoBytes)).toBe(0);

    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - CHARGE, used_quota: CHARGE });
    expect(await ledger(id)).toEqual([{ type: 'consume', quota: -CHARGE }]);
    const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(detail).toMatchObject({ channel_id: klingId, upstream_model: 'kling-v2-5-turbo', status: 'SUCCESS' });
    expect(await timeline(id)).toEqual([
      { kind: 'submitted', detail: `channel #${falId} (kling-on-fal)` },
      {
        kind: 'attempt',
        detail: expect.stringMatching(
          new RegExp(`^channel #${falId} \\(kling-on-fal\\) failed: .*runner_server_error.*submitted again on another channel\\)$`),
        ),
      },
      { kind: 'submitted', detail: `channel #${klingId} (kling-direct)` },
    ]);
  });

  it('a moderation failure on fal is refunded, not retried: Kling receives nothing', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const creates = kling.creates.length;
    const body = { ...BODY, prompt: 'a lighthouse [simulate:moderation]' };
    const id = (await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(body).expect(200)).body.id;
    await rounds(6);
    expect(await status(key, id)).toMatchObject({ status: 'failed', error: { code: 'content_moderation_failed' } });
    expect(kling.creates).toHaveLength(creates);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(await ledger(id)).toEqual([
      { type: 'consume', quota: -CHARGE },
      { type: 'refund', quota: CHARGE },
    ]);
  });
});
