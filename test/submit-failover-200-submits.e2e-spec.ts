import type { FalEmulatorServer } from './support/fal-emulator';
import type { TestGateway } from './support/gateway';
import type { KlingEmulatorServer } from './support/kling-emulator';
import { KLING_ON_TWO_PLATFORMS, KlingOnTwoPlatforms, PER_SECOND, startKlingOnTwoPlatforms } from './support/kling-on-two-platforms';
import { describeEachDatabase, queryDatabase } from './support/test-databases';

const QUOTA = 100_000_000;
const CHARGE = 10 * PER_SECOND;
/** CHANNEL_BREAKER_FAILURES's default. */
const FAILURES = 5;
const MODEL = KLING_ON_TWO_PLATFORMS;

/**
 * Issue 39's measure across platforms: a model served by Kling directly (first) and on fal, Kling
 * answering every submit 500. The same figures as test/channel-breakers.e2e-spec.ts (two channels of
 * one platform), here with the second channel on another platform. Money, so on every database.
 */
describeEachDatabase('submit failover across platforms, 200 submits', (kind) => {
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
  const breakerOf = async (id: number) => (await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.breaker;

  it('0 client-visible failures and one charge each; Kling gets at most failures + 1 submits per cool-down; healed, it serves within one cool-down', async () => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    kling.failEverySubmit({ status: 500, code: 5000 });
    const statuses: number[] = [];
    /** Submits that reached Kling, per cool-down (a window starts each time the breaker opens). */
    const perCooldown: number[] = [0];
    let openedAt: number | null = null;
    for (let i = 0; i < 200; i++) {
      const before = klingSubmits();
      const res = await gw.http
        .post('/v1/videos')
        .set('Authorization', `Bearer ${key}`)
        .send({ model: MODEL.id, prompt: `fox ${i}`, seconds: '10', size: '1280x720' });
      statuses.push(res.status);
      perCooldown[perCooldown.length - 1] += klingSubmits() - before;
      const breaker = await breakerOf(klingId);
      if (breaker.opened_at !== null && breaker.opened_at !== openedAt) {
        if (openedAt !== null) perCooldown.push(0);
        openedAt = breaker.opened_at;
      }
      // 200 submits over about a minute: the first cool-down ends, its trial fails, the second runs on.
      gw.clock.advance(300);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(Math.max(...perCooldown)).toBeLessThanOrEqual(FAILURES + 1);
    expect(perCooldown).toEqual([FAILURES + 1, 0]);
    expect(fal.submits).toHaveLength(200);

    const charges = await queryDatabase<{ task_id: string; n: number | string; channel_id: number | string }>(
      gw.database,
      `SELECT task_id, COUNT(*) AS n, MIN(channel_id) AS channel_id FROM logs WHERE user_id = ${userId} AND type = 'consume' GROUP BY task_id`,
    );
    expect(charges).toHaveLength(200);
    expect(charges.every((row) => Number(row.n) === 1 && Number(row.channel_id) === falId)).toBe(true);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 200 * CHARGE, used_quota: 200 * CHARGE });

    // Healed: it serves again once its cool-down ends, at the latest.
    const open = await breakerOf(klingId);
    expect(open).toMatchObject({ state: 'open' });
    kling.failEverySubmit(null);
    gw.clock.advance(Math.max(0, open.retry_at * 1000 - gw.clock.now()));
    const trial = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: MODEL.id, prompt: 'healed', seconds: '10', size: '1280x720' })
      .expect(200);
    expect((await gw.admin.get(`/api/admin/tasks/${trial.body.id}`).expect(200)).body.channel_id).toBe(klingId);
    expect(await breakerOf(klingId)).toEqual({ state: 'closed', failures: 0, opened_at: null, retry_at: null });
  });
});
