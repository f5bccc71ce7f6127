import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly } from './support/test-databases';
import { startWebhookGateway, WebhookGateway } from './support/webhook-gateway';
import { eventsFor, ReceivedWebhook } from './support/webhook-receiver';
import { until } from './support/until';

/** Webhooks as an integrator sees them: endpoints on /v1/webhooks, signed events at a receiver on loopback. */
describeEachDatabase('webhooks', (kind) => {
  let hooks: WebhookGateway;
  let gw: TestGateway;
  let customer: { userId: number; key: string };
  let other: { userId: number; key: string };

  const as = (key: string) => hooks.as(key);
  const deliver = () => hooks.deliver();
  /** The publisher's round by hand (a delivery round publishes only when it starts). */
  const publish = () => gw.app.get(WebhookEventPublisher).publishDueEvents();
  const receiver = () => hooks.receiver();
  const register = async (key: string, url: string, events?: string[]) => {
    const res = await as(key).post('/v1/webhooks', events ? { url, events } : { url });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string; url: string; events: string[]; status: string; created_at: number };
  };
  /** A family A task through /v1/videos that completes (or fails) at its first poll. */
  const flatTask = (key: string, fail = false) => hooks.flatTask(key, {}, fail);
  /** A family B task through /v1/video/generations that succeeds (or fails) at its first query. */
  const unifiedTask = (key: string, fail = false) => hooks.unifiedTask(key, {}, fail);
  /** Runs the task sync until every task has had its poll (families A and B poll within 10 s). */
  const finishTasks = () => hooks.finishTasks();
  beforeAll(async () => {
    hooks = await startWebhookGateway(kind);
    ({ gw, customer } = hooks);
    other = await gw.createCustomer({ quota: 10_000_000 });
  });
  afterAll(async () => {
    await hooks?.close();
  });

  it('tells each endpoint of the account about video.completed and video.failed of both surfaces, once each, signed for openai and standardwebhooks; another account sees none', async () => {
    const mine = await receiver();
    const theirs = await receiver();
    const endpoint = await register(customer.key, mine.url);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_/),
      url: mine.url,
      events: ['video.completed', 'video.failed'],
      secret: expect.any(String),
      status: 'enabled',
      created_at: expect.any(Number),
    });
    expect(Buffer.from(endpoint.secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    expect(endpoint.secret).toMatch(/^whsec_/);
    await register(other.key, theirs.url);

    const tasks = {
      flatCompleted: await flatTask(customer.key),
      flatFailed: await flatTask(customer.key, true),
      unifiedCompleted: await unifiedTask(customer.key),
      unifiedFailed: await unifiedTask(customer.key, true),
    };
    await finishTasks();
    await deliver();

    const openai = new OpenAI({ apiKey: 'unused', webhookSecret: endpoint.secret });
    const expected: Record<string, string> = {
      flatCompleted: 'video.completed',
      flatFailed: 'video.failed',
      unifiedCompleted: 'video.completed',
      unifiedFailed: 'video.failed',
    };
    for (const [name, taskId] of Object.entries(tasks)) {
      const events = eventsFor(mine, taskId);
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event.json).toEqual({
        id: event.headers['webhook-id'],
        object: 'event',
        type: expected[name],
        created_at: expect.any(Number),
        data: expect.objectContaining({ id: taskId, object: 'video' }),
      });
      expect(event.headers['content-type']).toBe('application/json');
      expect(event.headers['webhook-signature']).toMatch(/^v1,/);
      // The event carries the task as GET /v1/videos/{id} shows it.
      const flat = await as(customer.key).get(`/v1/videos/${taskId}`).expect(200);
      // Each rendering signs its own link (its `expires`, and `expires_at`, count from when it was made): compare the
      // link's target, and the expiries to within the seconds between the two renderings.
      const linkTarget = (video: { metadata?: { url?: string }; expires_at?: number | null }) => ({
        ...video,
        expires_at: video.expires_at == null ? video.expires_at : 'signed',
        metadata: video.metadata && { ...video.metadata, url: video.metadata.url?.replace(/\?.*$/, '') },
      });
      expect(linkTarget(event.json.data)).toEqual(linkTarget(flat.body));
      if (flat.body.expires_at != null) expect(Math.abs(flat.body.expires_at - event.json.data.expires_at)).toBeLessThanOrEqual(5);
      if (flat.body.metadata?.url) expect(event.json.data.metadata.url).toMatch(/\/content\?expires=\d+&signature=[0-9a-f]{64}$/);
      expect(flat.body.status).toBe(expected[name] === 'video.completed' ? 'completed' : 'failed');
      // Both verifiers accept it; neither accepts a changed body.
      await expect(openai.webhooks.verifySignature(event.body, mine.headersOf(event))).resolves.toBeUndefined();
      expect(new Webhook(endpoint.secret).verify(event.body, mine.headersOf(event))).toEqual(event.json);
      const tampered = event.body.replace(taskId, `${taskId}x`);
      await expect(openai.webhooks.verifySignature(tampered, mine.headersOf(event))).rejects.toThrow();
      expect(() => new Webhook(endpoint.secret).verify(tampered, mine.headersOf(event))).toThrow();
    }
    expect(new Set(mine.received.map((event) => event.headers['webhook-id'])).size).toBe(4);

    // Nothing twice, and nothing at the other account's endpoint.
    gw.clock.advance(60_000);
    await deliver();
    expect(mine.received).toHaveLength(4);
    expect(theirs.received).toHaveLength(0);

    const deliveries = await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
    expect(deliveries.body.data).toHaveLength(4);
    for (const delivery of deliveries.body.data) {
      expect(delivery).toEqual({
        id: expect.stringMatching(/^whd_/),
        event_id: expect.stringMatching(/^evt_/),
        type: expect.stringMatching(/^video\.(completed|failed)$/),
        task_id: expect.stringMatching(/^task_/),
        attempt: 1,
        status_code: 200,
        error: null,
        created_at: expect.any(Number),
        next_attempt_at: null,
        delivered_at: expect.any(Number),
      });
    }
    await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
    await as(other.key).get('/v1/webhooks').expect(200);
  });

  it('publishes a task end once, to the endpoints the account had when the task ended', async () => {
    const before = await receiver();
    const after = await receiver();
    const early = await register(customer.key, before.url);
    const taskId = await flatTask(customer.key);
    await finishTasks();
    gw.clock.advance(1);
    const late = await register(customer.key, after.url);
    await deliver();
    expect(eventsFor(before, taskId)).toHaveLength(1);
    expect(after.received).toHaveLength(0);
    // Published once: more rounds send nothing more.
    await publish();
    await deliver();
    expect(before.received).toHaveLength(1);
    await as(customer.key).delete(`/v1/webhooks/${early.id}`).expect(204);
    await as(customer.key).delete(`/v1/webhooks/${late.id}`).expect(204);
  });

  it('retries a 500 with the same webhook-id after about 5 s and shows both attempts in the deliveries', async () => {
    const flaky = await receiver();
    flaky.status = 500;
    const endpoint = await register(customer.key, flaky.url, ['video.completed']);
    const taskId = await flatTask(customer.key);
    await finishTasks();
    await deliver();
    expect(flaky.received).toHaveLength(1);

    let deliveries = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(deliveries).toHaveLength(2);
    const [pending, failed] = deliveries;
    expect(failed).toMatchObject({
      task_id: taskId,
      type: 'video.completed',
      attempt: 1,
      status_code: 500,
      error: 'HTTP 500',
      delivered_at: null,
    });
    expect(failed.next_attempt_at - failed.created_at).toBeGreaterThanOrEqual(4);
    expect(failed.next_attempt_at - failed.created_at).toBeLessThanOrEqual(7);
    expect(pending).toMatchObject({
      event_id: failed.event_id,
      attempt: 2,
      status_code: null,
      delivered_at: null,
      next_attempt_at: failed.next_attempt_at,
    });

    // Not before its time...
    flaky.status = 204;
    await deliver();
    expect(flaky.received).toHaveLength(1);
    // ...then with the same webhook-id, freshly signed.
    gw.clock.advance(6_000);
    await deliver();
    expect(flaky.received).toHaveLength(2);
    expect(flaky.received[1].headers['webhook-id']).toBe(flaky.received[0].headers['webhook-id']);
    expect(flaky.received[1].body).toBe(flaky.received[0].body);
    await new OpenAI({ apiKey: 'unused' }).webhooks.verifySignature(
      flaky.received[1].body,
      flaky.headersOf(flaky.received[1]),
      endpoint.secret,
    );

    deliveries = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(deliveries.map((delivery: any) => [delivery.attempt, delivery.status_code, delivery.delivered_at !== null])).toEqual([
      [2, 204, true],
      [1, 500, false],
    ]);
    const metrics = (await gw.http.get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/gateway_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(metrics).toMatch(/gateway_webhook_deliveries_total\{outcome="http_error"\} [1-9]/);
    await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
  });

  it('delivers to an endpoint that was down when the task ended once it is back', async () => {
    const down = await receiver();
    const endpoint = await register(customer.key, down.url);
    await down.stop();
    const taskId = await unifiedTask(customer.key, true);
    await finishTasks();
    await deliver();
    const [, failed] = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(failed).toMatchObject({ task_id: taskId, attempt: 1, status_code: null, error: expect.stringContaining('connection failed') });

    await down.start();
    gw.clock.advance(6_000);
    await deliver();
    expect(down.received).toHaveLength(1);
    expect(down.received[0].json).toMatchObject({ type: 'video.failed', data: { id: taskId, status: 'failed' } });
    await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
  });

  itOnSqliteOnly(kind)(
    'sends webhook.test on request, keeps endpoints to their account, and answers errors in the OpenAI shape',
    async () => {
      const target = await receiver();
      const endpoint = await register(customer.key, target.url, ['video.failed']);
      const test = await as(customer.key).post(`/v1/webhooks/${endpoint.id}/test`).expect(200);
      expect(test.body).toMatchObject({
        type: 'webhook.test',
        task_id: null,
        attempt: 1,
        status_code: 200,
        delivered_at: expect.any(Number),
      });
      expect(target.received).toHaveLength(1);
      expect(target.received[0].json).toMatchObject({ id: test.body.event_id, object: 'event', type: 'webhook.test' });
      await new OpenAI({ apiKey: 'unused' }).webhooks.verifySignature(
        target.received[0].body,
        target.headersOf(target.received[0]),
        endpoint.secret,
      );

      const listed = await as(customer.key).get('/v1/webhooks').expect(200);
      expect(listed.body.data).toEqual([
        { id: endpoint.id, url: target.url, events: ['video.failed'], status: 'enabled', created_at: endpoint.created_at },
      ]);
      expect(JSON.stringify(listed.body)).not.toContain('whsec_');

      // Another account: 404 on everything, and its list is its own.
      for (const call of [
        as(other.key).get(`/v1/webhooks/${endpoint.id}/deliveries`),
        as(other.key).post(`/v1/webhooks/${endpoint.id}/test`),
        as(other.key).delete(`/v1/webhooks/${endpoint.id}`),
      ]) {
        const res = await call;
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'not_found' });
      }
      expect((await as(other.key).get('/v1/webhooks').expect(200)).body.data.map((row: any) => row.id)).not.toContain(endpoint.id);
      expect(target.received).toHaveLength(1);

      const docs = (await gw.http.get('/docs-json').expect(200)).body;
      expect(Object.keys(docs.paths)).toEqual(
        expect.arrayContaining(['/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/deliveries', '/v1/webhooks/{id}/test']),
      );
      expect(docs.components.schemas.WebhookEvent.description).toEqual(expect.stringContaining('webhook-signature'));
      expect(Object.keys(docs.components.schemas.WebhookEvent.properties)).toEqual(['id', 'object', 'type', 'created_at', 'data']);

      const anonymous = await gw.http.get('/v1/webhooks');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error).toMatchObject({ type: 'authentication_error' });
      const badEvent = await as(customer.key).post('/v1/webhooks', { url: target.url, events: ['video.started'] });
      expect(badEvent.status).toBe(400);
      expect(badEvent.body.error).toMatchObject({ param: 'events', type: 'invalid_request_error' });
      const notHttp = await as(customer.key).post('/v1/webhooks', { url: 'ftp://example.com/hook' });
      expect(notHttp.status).toBe(400);
      expect(notHttp.body.error.param).toBe('url');
      await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
      await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(404);
    },
  );

  itOnSqliteOnly(kind)(
    'answers 30 concurrent test calls to a healthy endpoint each with its own attempt, or 429 with Retry-After once 4 are in flight; never a 500',
    async () => {
      const target = await receiver();
      target.delayMs = 300;
      const endpoint = await register(customer.key, target.url);
      const answers = await Promise.all(Array.from({ length: 30 }, () => as(customer.key).post(`/v1/webhooks/${endpoint.id}/test`)));
      const sent = answers.filter((res) => res.status === 200);
      const refused = answers.filter((res) => res.status !== 200);
      for (const res of refused) {
        expect(res.status).toBe(429);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('4 deliveries in flight') });
      }
      expect(sent.length).toBeGreaterThan(0);
      for (const res of sent)
        expect(res.body).toMatchObject({
          type: 'webhook.test',
          attempt: 1,
          status_code: 200,
          error: null,
          next_attempt_at: null,
          delivered_at: expect.any(Number),
        });
      // Each answer is its own attempt, and exactly those reached the endpoint, at most 4 at a time.
      expect(new Set(sent.map((res) => res.body.id)).size).toBe(sent.length);
      expect(target.received.map((event) => event.json.id).sort()).toEqual(sent.map((res) => res.body.event_id).sort());
      expect(target.mostAtOnce).toBeLessThanOrEqual(4);
      await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
    },
  );

  itOnSqliteOnly(kind)(
    'sends at most 4 test events at once to a hanging endpoint (the others get 429 with Retry-After), reports the timeout, and never sends a test event again',
    async () => {
      const hanging = await receiver();
      hanging.hang = true;
      const endpoint = await register(customer.key, hanging.url);
      const calls = Promise.all(Array.from({ length: 100 }, () => as(customer.key).post(`/v1/webhooks/${endpoint.id}/test`)));
      await until('a first test event at the hanging endpoint', () => hanging.received.length, {
        done: (received) => received > 0,
        timeoutMs: 120_000,
      });
      // A delivery round while the test events hang: it must not take them over.
      const round = deliver();
      const answers = await calls;
      hanging.hang = false;
      await round;
      const sent = answers.filter((res) => res.status === 200);
      for (const res of answers.filter((answer) => answer.status !== 200)) {
        expect(res.status).toBe(429);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.length).toBeLessThanOrEqual(4);
      for (const res of sent)
        expect(res.body).toMatchObject({
          type: 'webhook.test',
          attempt: 1,
          status_code: null,
          error: 'no answer within 10 s',
          next_attempt_at: null,
          delivered_at: null,
        });
      expect(hanging.received).toHaveLength(sent.length);
      expect(hanging.mostAtOnce).toBeLessThanOrEqual(4);

      // Sent once, never retried: nothing more after the retry schedule's first steps.
      for (const step of [6_000, 6 * 60_000]) {
        gw.clock.advance(step);
        await deliver();
      }
      expect(hanging.received).toHaveLength(sent.length);
      const listed = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
      expect(listed.map((row: any) => row.id).sort()).toEqual(sent.map((res) => res.body.id).sort());
      await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
    },
    120_000,
  );

  itOnSqliteOnly(kind)(
    'refuses private addresses unless MEDIA_ALLOW_PRIVATE_HOSTS, at registration and again at each delivery',
    async () => {
      const target = await receiver();
      const endpoint = await register(customer.key, target.url);
      gw.config.mediaAllowPrivateHosts = false;
      try {
        for (const url of [target.url, 'http://10.1.2.3/hook', 'http://[::1]:8080/hook', 'http://169.254.169.254/latest']) {
          const res = await as(customer.key).post('/v1/webhooks', { url });
          expect(res.status).toBe(400);
          // Names the switch, so someone trying a receiver on localhost knows what to set.
          expect(res.body.error).toMatchObject({
            param: 'url',
            message: expect.stringMatching(/public host.*MEDIA_ALLOW_PRIVATE_HOSTS=true/),
          });
        }
        // Registered while allowed; refused when it is sent, and nothing reaches the receiver.
        await flatTask(customer.key);
        await finishTasks();
        await deliver();
        expect(target.received).toHaveLength(0);
        const [, refused] = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
        expect(refused).toMatchObject({
          attempt: 1,
          status_code: null,
          error: expect.stringMatching(/public host.*MEDIA_ALLOW_PRIVATE_HOSTS=true/),
        });
      } finally {
        gw.config.mediaAllowPrivateHosts = true;
      }
      await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
    },
  );

  it('keeps delivering to a healthy endpoint while another endpoint of the account hangs', async () => {
    const hanging = await receiver();
    hanging.hang = true;
    const healthy = await receiver();
    const stuck = await register(customer.key, hanging.url);
    const fine = await register(customer.key, healthy.url);
    const first = await flatTask(customer.key);
    await finishTasks();
    const round = deliver();
    await until('one event at each endpoint', () => [hanging.received.length, healthy.received.length], {
      done: ([atHanging, atHealthy]) => atHanging === 1 && atHealthy === 1,
    });
    // A task ends while the hanging endpoint still holds its attempt: the healthy endpoint gets it all the same.
    const second = await unifiedTask(customer.key);
    await finishTasks();
    await publish();
    await until('both events at the healthy endpoint', () => healthy.received.length, { done: (received) => received === 2 });
    expect(healthy.received.map((event) => event.json.data.id)).toEqual([first, second]);
    const [stuckAttempt] = (await as(customer.key).get(`/v1/webhooks/${stuck.id}/deliveries`).expect(200)).body.data.filter(
      (row: any) => row.task_id === first,
    );
    expect(stuckAttempt).toMatchObject({ attempt: 1, status_code: null, delivered_at: null });
    // The hanging endpoint goes away: its attempts fail and are retried later; the round ends.
    await hanging.stop();
    await round;
    await as(customer.key).delete(`/v1/webhooks/${stuck.id}`).expect(204);
    await as(customer.key).delete(`/v1/webhooks/${fine.id}`).expect(204);
  });

  itOnSqliteOnly(kind)(
    'console: a customer adds an endpoint (secret once), sees deliveries with status codes, resends and enables; admins see failing endpoints',
    async () => {
      const target = await receiver();
      target.status = 500;
      const username = `hooks_${kind}_console`;
      const user = await gw.admin.post('/api/admin/users', { username, password: 'pass-word-1', quota: 1_000_000 }).expect(201);
      const key = (await gw.admin.post(`/api/admin/users/${user.body.id}/keys`, { name: 'k' }).expect(201)).body.key;
      const session = await gw.http.post('/console/api/session').send({ username, password: 'pass-word-1' }).expect(200);
      const cookie = String(session.headers['set-cookie'][0]).split(';')[0];
      const consoleGet = (path: string) => gw.http.get(path).set('Cookie', cookie);
      const consolePost = (path: string, body?: object) =>
        gw.http
          .post(path)
          .set('Cookie', cookie)
          .set('X-CSRF-Token', session.body.csrf_token)
          .send(body ?? {});

      const created = await consolePost('/console/api/webhooks', { url: target.url }).expect(201);
      expect(created.body.secret).toMatch(/^whsec_/);
      await flatTask(key);
      await finishTasks();
      await deliver();
      const listed = (await consoleGet('/console/api/webhooks').expect(200)).body.data;
      expect(listed).toEqual([expect.objectContaining({ id: created.body.id, status: 'enabled', failing_since: expect.any(Number) })]);
      expect(JSON.stringify(listed)).not.toContain('whsec_');
      const failed = (await consoleGet(`/console/api/webhooks/${created.body.id}/deliveries`).expect(200)).body.data.find(
        (row: any) => row.attempt === 1,
      );
      expect(failed).toMatchObject({ status_code: 500 });

      const failing = (await gw.admin.get('/api/admin/webhooks/failing').expect(200)).body.data.find(
        (row: any) => row.id === created.body.id,
      );
      expect(failing).toMatchObject({
        user_id: user.body.id,
        status: 'enabled',
        last_status_code: 500,
        last_error: 'HTTP 500',
        failing_since: expect.any(Number),
      });
      expect([401, 403]).toContain((await gw.http.get('/api/admin/webhooks/failing').set('Cookie', cookie)).status);

      // Resend: the pending retry is sent now, not in 5 s.
      target.status = 200;
      await consolePost(`/console/api/webhooks/${created.body.id}/deliveries/${failed.id}/resend`).expect(202);
      await deliver();
      expect(target.received).toHaveLength(2);
      expect(target.received[1].headers['webhook-id']).toBe(target.received[0].headers['webhook-id']);
      expect((await gw.admin.get('/api/admin/webhooks/failing').expect(200)).body.data.map((row: any) => row.id)).not.toContain(
        created.body.id,
      );
      // And once more on request, after it was delivered.
      await consolePost(`/console/api/webhooks/${created.body.id}/deliveries/${failed.id}/resend`).expect(202);
      await deliver();
      expect(target.received).toHaveLength(3);
      const test = await consolePost(`/console/api/webhooks/${created.body.id}/test`).expect(200);
      expect(test.body).toMatchObject({ type: 'webhook.test', status_code: 200 });
      await consolePost(`/console/api/webhooks/${created.body.id}/enable`).expect(200);
      await gw.http
        .delete(`/console/api/webhooks/${created.body.id}`)
        .set('Cookie', cookie)
        .set('X-CSRF-Token', session.body.csrf_token)
        .expect(204);
    },
  );

  it('disables an endpoint whose deliveries have failed for 3 days; it then gets no new events', async () => {
    const broken = await receiver();
    broken.status = 503;
    const endpoint = await register(customer.key, broken.url);
    await flatTask(customer.key);
    await finishTasks();
    await deliver();
    expect(broken.received).toHaveLength(1);
    gw.clock.advance(3 * 24 * 3_600_000);
    await deliver();
    expect(broken.received).toHaveLength(2);
    const listed = (await as(customer.key).get('/v1/webhooks').expect(200)).body.data.find((row: any) => row.id === endpoint.id);
    expect(listed.status).toBe('disabled');
    const deliveries = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(deliveries[0]).toMatchObject({ attempt: 2, status_code: 503, next_attempt_at: null });

    await flatTask(customer.key);
    await finishTasks();
    gw.clock.advance(24 * 3_600_000);
    await deliver();
    expect(broken.received).toHaveLength(2);
    expect((await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data).toHaveLength(2);
    await as(customer.key).delete(`/v1/webhooks/${endpoint.id}`).expect(204);
  });
});

export type { ReceivedWebhook };
