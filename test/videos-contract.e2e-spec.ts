import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { betaChannelBody, BetaEmulatorServer, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const DAY_MS = 24 * 3600_000;
/** alpha/v5 720p 5 s: 60 credits; beta 720P 5 s: 10 credits a second. */
const V5_PRICE = 6000;
const BETA_720P_PRICE = 5000;

/** Product-contract promises shared by both video surfaces: idempotency window, missing channels, request ids. */
describeOnSqlite('videos and generations: contract of the OpenAI-compatible surface', (kind) => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let beta: BetaEmulatorServer;
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    [alpha, beta] = await Promise.all([startAlphaEmulator(), startBetaEmulator()]);
    gw = await startGateway(kind);
    // Only alpha/v5 and beta-1.0-t2v are served, and only to the default group.
    await gw.createChannel(alphaChannelBody(alpha, { models: ['alpha/v5'], groups: ['default'] }));
    await gw.createChannel({ ...betaChannelBody(beta), models: ['beta-1.0-t2v'], groups: ['default'] });
  });
  afterAll(async () => {
    await gw?.close();
    await alpha?.close();
    await beta?.close();
  });

  const post = (path: string, key: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${key}`).send(body);

  describe('Idempotency-Key holds for 24 hours', () => {
    it.each([
      ['/v1/videos', { model: 'alpha/v5', prompt: 'once a day' }, V5_PRICE, () => alpha.calls('generate').length],
      [
        '/v1/video/generations',
        { model: 'beta-1.0-t2v', prompt: 'once a day', size: '720P' },
        BETA_720P_PRICE,
        () => beta.submits().length,
      ],
    ])(
      '%s: the same key and body return the first task until 24 h have passed, then start a new one',
      async (path, body, price, upstreamSubmits) => {
        const { userId, key } = await gw.createCustomer({ quota: QUOTA });
        const sentBefore = upstreamSubmits();
        const first = await post(path, key, body).set('Idempotency-Key', 'daily-run').expect(200);
        gw.clock.advance(DAY_MS - 1000);
        const replay = await post(path, key, body).set('Idempotency-Key', 'daily-run').expect(200);
        expect(replay.body).toEqual(first.body);
        expect(upstreamSubmits()).toBe(sentBefore + 1);
        expect(await gw.balance(userId)).toEqual({ quota: QUOTA - price, used_quota: price });

        gw.clock.advance(2000);
        const later = await post(path, key, body).set('Idempotency-Key', 'daily-run').expect(200);
        expect(later.body.id).not.toBe(first.body.id);
        expect(upstreamSubmits()).toBe(sentBefore + 2);
        expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 2 * price, used_quota: 2 * price });
        // The key now belongs to the new task.
        const again = await post(path, key, body).set('Idempotency-Key', 'daily-run').expect(200);
        expect(again.body.id).toBe(later.body.id);
      },
    );
  });

  it('Idempotency-Key: once the client deleted the task, the key starts a new one', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    alpha.scriptNext([1]);
    const body = { model: 'alpha/v5', prompt: 'delete me' };
    const first = await post('/v1/videos', key, body).set('Idempotency-Key', 'run-7').expect(200);
    gw.clock.advance(4000);
    await gw.sync();
    await gw.http.delete(`/v1/videos/${first.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
    const again = await post('/v1/videos', key, body).set('Idempotency-Key', 'run-7').expect(200);
    expect(again.body.id).not.toBe(first.body.id);
    await gw.http.get(`/v1/videos/${again.body.id}`).set('Authorization', `Bearer ${key}`).expect(200);
  });

  describe("no channel serves the model: 503, or 400 where it is another group's; nothing charged", () => {
    it('on /v1/videos, for a model no channel lists, in the OpenAI shape', async () => {
      const { userId, key } = await gw.createCustomer({ quota: QUOTA });
      const res = await post('/v1/videos', key, { model: 'alpha/v6', prompt: 'x' }).expect(503);
      expect(res.body).toEqual({
        error: { message: 'no available channel for model alpha/v6', type: 'server_error', param: null, code: 'service_unavailable' },
      });
      expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    });

    it("on /v1/video/generations, for another group's model: the unknown model's 400 in the wrapper shape, never naming a channel", async () => {
      const { userId, key } = await gw.createCustomer({ quota: QUOTA, group: 'partners' });
      const submits = beta.submits().length;
      const res = await post('/v1/video/generations', key, { model: 'beta-1.0-t2v', prompt: 'x' }).expect(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: 'unknown model: beta-1.0-t2v' });
      const flat = await post('/v1/videos', key, { model: 'beta-1.0-t2v', prompt: 'x' }).expect(400);
      expect(flat.body.error).toMatchObject({ message: 'unknown model: beta-1.0-t2v', code: 'invalid_request', param: 'model' });
      expect(beta.submits()).toHaveLength(submits);
      expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
      const logs = await gw.admin.get(`/api/admin/logs?user_id=${userId}`).expect(200);
      expect(logs.body.total).toBe(1); // the top-up only
    });
  });

  it('sends x-request-id on every video response, errors and downloads included, echoing a sane one', async () => {
    const { key } = await gw.createCustomer({ quota: QUOTA });
    const submitted = await post('/v1/videos', key, { model: 'alpha/v5', prompt: 'ids' }).expect(200);
    const responses = [
      submitted,
      await gw.http.get(`/v1/videos/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200),
      await gw.http.get('/v1/videos').set('Authorization', `Bearer ${key}`).expect(200),
      await gw.http.get(`/v1/videos/${submitted.body.id}/content`).set('Authorization', `Bearer ${key}`).expect(409),
      await gw.http.get(`/v1/video/generations/${submitted.body.id}`).set('Authorization', `Bearer ${key}`).expect(200),
      await post('/v1/video/generations', key, { model: 'beta-1.0-t2v' }).expect(400),
      await gw.http.get('/v1/videos/task_unknown').set('Authorization', `Bearer ${key}`).expect(404),
      await gw.http.post('/v1/videos').send({}).expect(401),
    ];
    for (const res of responses) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await gw.http
      .get(`/v1/videos/${submitted.body.id}`)
      .set('Authorization', `Bearer ${key}`)
      .set('x-request-id', 'client-7f3a')
      .expect(200);
    expect(echoed.headers['x-request-id']).toBe('client-7f3a');
  });
});
