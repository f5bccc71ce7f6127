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
import { describeEachDatabase, queryDatabase } from './support/test-databases';

const QUOTA = 1_000_000;
const CHARGE = 10 * PER_SECOND;
/** CHANNEL_BREAKER_FAILURES's default. */
const FAILURES = 5;
const MODEL = KLING_ON_TWO_PLATFORMS;
const BODY = { model: MODEL.id, prompt: 'a fox in the snow', seconds: '10', size: '1280x720' };

/**
 * Failover at submit across platforms (issue 39, "Kling directly, then Kling on fal"): Kling's channel
 * outranks fal's; when Kling does not take a submit, fal's channel gets the request fal's family
 * builds, under the same task and its one charge. Money, so on every database.
 */
describeEachDatabase('submit failover across platforms', (kind) => {
  let setup: KlingOnTwoPlatforms;
  let gw: TestGateway;
  let kling: KlingEmulatorServer;
  let fal: FalEmulatorServer;
  let klingId: number;
  let falId: number;

  beforeAll(async () => {
    setup = await startKlingOnTwoPlatforms(kind, 'kling');
    ({ gw, kling, fal, klingId, falId } = setup);
  });
  afterAll(() => setup?.close());

  const klingSubmits = () => kling.requests.filter((request) => request.method === 'POST').length;
  const submit = (key: string, body: object = BODY) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(body);
  const ledger = (taskId: string) => ledgerOf(gw, taskId);
  const timeline = (taskId: string) => attemptsOf(gw, taskId);
  const finish = async (key: string, taskId: string) => {
    for (let round = 0; round < 8; round++) {
      gw.clock.advance(15_000);
      await gw.sync();
    }
    return (await gw.http.get(`/v1/videos/${taskId}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
  };

  it("Kling answers 500: the task is accepted on fal with fal's request, one task and one charge, and completes with fal's video", async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    kling.failNextSubmit({ status: 500, code: 5000 });
    const before = klingSubmits();
    const res = await submit(key).expect(200);
    expect(res.body).toMatchObject({ model: MODEL.id, status: 'queued' });
    expect(klingSubmits()).toBe(before + 1);
    expect(fal.submits).toHaveLength(1);
    expect(fal.submits[0]).toMatchObject({ endpoint: FAL_ENDPOINT, input: { prompt: BODY.prompt, duration: '10', aspect_ratio: '16:9' } });

    const done = await finish(key, res.body.id);
    expect(done).toMatchObject({ id: res.body.id, model: MODEL.id, status: 'completed' });
    const content = await gw.http
      .get(`/v1/videos/${res.body.id}/content`)
      .set('Authorization', `Bearer ${key}`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, fal.videoBytes)).toBe(0);

    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - CHARGE, used_quota: CHARGE });
    expect(await ledger(res.body.id)).toEqual([{ type: 'consume', quota: -CHARGE }]);
    // The one charge names the channel that runs the task.
    const [row] = await queryDatabase<{ channel_id: number | string }>(
      gw.database,
      `SELECT channel_id FROM logs WHERE task_id = '${res.body.id}'`,
    );
    expect(Number(row.channel_id)).toBe(falId);
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}`).expect(200)).body;
    expect(tasks.total).toBe(1);
    expect(tasks.data[0]).toMatchObject({ channel_id: falId, platform: 'fal', upstream_model: FAL_ENDPOINT });
    expect(await timeline(res.body.id)).toEqual([
      { kind: 'attempt', detail: expect.stringMatching(new RegExp(`^channel #${klingId} \\(kling-direct\\) failed: transient: `)) },
      { kind: 'submitted', detail: `channel #${falId} (kling-on-fal)` },
    ]);
    // Kling's own words never reach the client.
    expect(JSON.stringify(done)).not.toContain('provider internal error');
  });

  it("a request fal's route refuses is not failed for it while Kling takes it; with Kling down it is refused, nothing charged", async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const withNegative = { ...BODY, negative_prompt: 'blur' };
    const sent = fal.submits.length;
    await submit(key, withNegative).expect(200);
    expect(kling.creates.at(-1)!.body).toMatchObject({ negative_prompt: 'blur' });

    kling.failNextSubmit({ status: 500, code: 5000 });
    const refused = await submit(key, withNegative).expect(503);
    expect(fal.submits).toHaveLength(sent);
    expect(JSON.stringify(refused.body)).not.toContain('provider internal error');
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - CHARGE, used_quota: CHARGE });
    const tasks = (await gw.admin.get(`/api/admin/tasks?user_id=${userId}&status=REJECTED`).expect(200)).body;
    expect(await timeline(tasks.data[0].task_id)).toEqual([
      { kind: 'attempt', detail: expect.stringMatching(new RegExp(`^channel #${klingId} \\(kling-direct\\) failed: transient: `)) },
      { kind: 'attempt', detail: `channel #${falId} (kling-on-fal) passed over: its platform's rules refuse this request` },
    ]);
  });

  it('after CHANNEL_BREAKER_FAILURES failures Kling stops receiving submits: they go straight to fal, each charged once', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    // A fresh streak: the failures above are forgotten.
    await gw.admin.post(`/api/admin/channels/${klingId}/breaker/close`).expect(200);
    const streak = FAILURES;
    for (let i = 0; i < streak; i++) kling.failNextSubmit({ status: 500, code: 5000 });
    const before = klingSubmits();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await submit(key, { ...BODY, prompt: `fox ${i}` }).expect(200)).body.id);
    expect(klingSubmits() - before).toBe(streak);
    const breaker = (await gw.admin.get(`/api/admin/channels/${klingId}`).expect(200)).body.breaker;
    expect(breaker).toMatchObject({ state: 'open', failures: FAILURES });
    for (const id of ids) expect(await ledger(id)).toEqual([{ type: 'consume', quota: -CHARGE }]);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 10 * CHARGE, used_quota: 10 * CHARGE });
    // Past the breaker's streak, a submit's timeline names fal's channel only: Kling was never tried.
    expect(await timeline(ids.at(-1)!)).toEqual([{ kind: 'submitted', detail: `channel #${falId} (kling-on-fal)` }]);

    // Only fal is open now, and its route refuses this body: a 503 saying when Kling's breaker lets a submit try again, nothing charged.
    const waiting = await submit(key, { ...BODY, negative_prompt: 'blur' }).expect(503);
    const retryAfter = Number(waiting.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((breaker.retry_at * 1000 - Date.now()) / 1000) + 2);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 10 * CHARGE, used_quota: 10 * CHARGE });
  });
});
