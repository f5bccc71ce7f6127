import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { AlphaEmulatorServer } from './support/alpha-emulator';
import { TestGateway } from './support/gateway';
import { describeEachDatabase, itOnSqliteOnly, queryDatabase } from './support/test-databases';
import { flatBody, startWebhookGateway, unifiedBody, WebhookGateway } from './support/webhook-gateway';
import { eventsFor, ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

/** Per-request callbacks as an integrator sees them: `callback_url` on a submit, the account's callback secret, signed events at a receiver. */
describeEachDatabase('webhooks: per-request callbacks', (kind) => {
  let hooks: WebhookGateway;
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let customer: { userId: number; key: string };
  let secret: string;

  const as = (key: string) => hooks.as(key);
  const deliver = () => hooks.deliver();
  const receiver = () => hooks.receiver();
  /** A family A task through /v1/videos (JSON) that completes (or fails) at its first poll. */
  const flatTask = (key: string, extra: object = {}, fail = false) => hooks.flatTask(key, extra, fail);
  /** The same through a multipart form. */
  const multipartTask = async (key: string, callbackUrl: string) => {
    alpha.scriptNext([1]);
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${key}`)
      .field('model', 'alpha/v6')
      .field('prompt', 'a multipart lighthouse')
      .field('seconds', '5')
      .field('callback_url', callbackUrl);
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  /** A family B task through /v1/video/generations that succeeds (or fails) at its first query. */
  const unifiedTask = (key: string, extra: object = {}, fail = false) => hooks.unifiedTask(key, extra, fail);
  const finishTasks = () => hooks.finishTasks();
  const callbackDeliveries = async (key: string, taskId: string) =>
    (await as(key).get(`/v1/webhooks/callback-deliveries?task_id=${taskId}`).expect(200)).body.data as any[];
  const verifiesWith = (target: WebhookReceiver, event: ReceivedWebhook, withSecret: string): boolean => {
    try {
      new Webhook(withSecret).verify(event.body, target.headersOf(event));
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    hooks = await startWebhookGateway(kind);
    ({ gw, alpha, customer } = hooks);
    const created = await as(customer.key).post('/v1/webhooks/callback-secret').expect(201);
    expect(created.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(Buffer.from(created.body.secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    secret = created.body.secret;
    // Kept sealed like an endpoint's secret, never as sent.
    const stored = await queryDatabase<{ secret_encrypted: string }>(
      gw.database,
      "SELECT secret_encrypted FROM webhook_endpoints WHERE kind = 'callback'",
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].secret_encrypted).toMatch(/^v1:/);
    expect(stored[0].secret_encrypted).not.toContain(secret.replace(/^whsec_/, ''));
  });
  afterAll(async () => {
    await hooks?.close();
  });

  it('POSTs each task end to its callback_url, from JSON, multipart and unified submits, signed for standardwebhooks and openai', async () => {
    const target = await receiver();
    const tasks = {
      flatCompleted: await flatTask(customer.key, { callback_url: target.url }),
      flatFailed: await flatTask(customer.key, { callback_url: target.url }, true),
      multipartCompleted: await multipartTask(customer.key, target.url),
      unifiedCompleted: await unifiedTask(customer.key, { callback_url: target.url }),
      unifiedFailed: await unifiedTask(customer.key, { callback_url: target.url }, true),
    };
    await finishTasks();
    await deliver();

    const openai = new OpenAI({ apiKey: 'unused', webhookSecret: secret });
    for (const [name, taskId] of Object.entries(tasks)) {
      const events = eventsFor(target, taskId);
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event.json).toEqual({
        id: event.headers['webhook-id'],
        object: 'event',
        type: name.endsWith('Failed') ? 'video.failed' : 'video.completed',
        created_at: expect.any(Number),
        data: expect.objectContaining({ id: taskId, object: 'video', status: name.endsWith('Failed') ? 'failed' : 'completed' }),
      });
      expect(event.headers['content-type']).toBe('application/json');
      expect(new Webhook(secret).verify(event.body, target.headersOf(event))).toEqual(event.json);
      await expect(openai.webhooks.verifySignature(event.body, target.headersOf(event))).resolves.toBeUndefined();
      await expect(openai.webhooks.verifySignature(event.body.replace(taskId, `${taskId}x`), target.headersOf(event))).rejects.toThrow();

      const [delivery] = await callbackDeliveries(customer.key, taskId);
      expect(delivery).toEqual({
        id: expect.stringMatching(/^whd_/),
        event_id: event.headers['webhook-id'],
        type: event.json.type,
        task_id: taskId,
        attempt: 1,
        status_code: 200,
        error: null,
        created_at: expect.any(Number),
        next_attempt_at: null,
        delivered_at: expect.any(Number),
      });
    }
    // Sent once: another round sends nothing more.
    await deliver();
    expect(target.received).toHaveLength(Object.keys(tasks).length);
  });

  it("sends a task's callback only to its callback_url, and the account's endpoints still get theirs (the same event)", async () => {
    const endpointReceiver = await receiver();
    const callbackReceiver = await receiver();
    const endpoint = (await as(customer.key).post('/v1/webhooks', { url: endpointReceiver.url }).expect(201)).body;
    const withCallback = await flatTask(customer.key, { callback_url: callbackReceiver.url });
    const withoutCallback = await unifiedTask(customer.key);
    await finishTasks();
    await deliver();

    expect(callbackReceiver.received.map((event) => event.json.data.id)).toEqual([withCallback]);
    expect(endpointReceiver.received.map((event) => event.json.data.id).sort()).toEqual([withCallback, withoutCallback].sort());
    const [atEndpoint] = eventsFor(endpointReceiver, withCallback);
    const [atCallback] = callbackReceiver.received;
    expect(atCallback.headers['webhook-id']).toBe(atEndpoint.headers['webhook-id']);
    expect(atCallback.body).toBe(atEndpoint.body);
    // Each is signed with its own secret.
    expect(verifiesWith(endpointReceiver, atEndpoint, endpoint.secret)).toBe(true);
    expect(verifiesWith(callbackReceiver, atCallback, secret)).toBe(true);
    expect(verifiesWith(callbackReceiver, atCallback, endpoint.secret)).toBe(false);
    // The endpoint's deliveries are its own; the callback deliveries hold only the callback's.
    const endpointDeliveries = (await as(customer.key).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(endpointDeliveries.map((row: any) => row.task_id).sort()).toEqual([withCallback, withoutCallback].sort());
    expect(await callbackDeliveries(customer.key, withoutCallback)).toEqual([]);
    expect(await callbackDeliveries(customer.key, withCallback)).toHaveLength(1);
    // The callback secret is not an endpoint.
    const listed = (await as(customer.key).get('/v1/webhooks').expect(200)).body.data;
    expect(listed.map((row: any) => row.id)).toEqual([endpoint.id]);
    await gw.http.delete(`/v1/webhooks/${endpoint.id}`).set('Authorization', `Bearer ${customer.key}`).expect(204);
  });

  it('sends each callback once when two publishing and delivery rounds race', async () => {
    const target = await receiver();
    const taskIds = [
      await flatTask(customer.key, { callback_url: target.url }),
      await unifiedTask(customer.key, { callback_url: target.url }),
      await flatTask(customer.key, { callback_url: target.url }, true),
    ];
    await finishTasks();
    await Promise.all([deliver(), deliver()]);
    await deliver();
    for (const taskId of taskIds) {
      expect(eventsFor(target, taskId)).toHaveLength(1);
      expect(await callbackDeliveries(customer.key, taskId)).toHaveLength(1);
    }
  });

  it('retries a callback that answered 500, with the same webhook-id, and lists both attempts by task_id', async () => {
    const flaky = await receiver();
    flaky.status = 500;
    const taskId = await flatTask(customer.key, { callback_url: flaky.url });
    await finishTasks();
    await deliver();
    expect(flaky.received).toHaveLength(1);
    let deliveries = await callbackDeliveries(customer.key, taskId);
    expect(deliveries).toEqual([
      expect.objectContaining({ attempt: 2, status_code: null, delivered_at: null }),
      expect.objectContaining({ attempt: 1, status_code: 500, error: 'HTTP 500', delivered_at: null }),
    ]);
    expect(deliveries[0].event_id).toBe(deliveries[1].event_id);

    flaky.status = 200;
    gw.clock.advance(6_000);
    await deliver();
    expect(flaky.received).toHaveLength(2);
    expect(flaky.received[1].headers['webhook-id']).toBe(flaky.received[0].headers['webhook-id']);
    expect(verifiesWith(flaky, flaky.received[1], secret)).toBe(true);
    deliveries = await callbackDeliveries(customer.key, taskId);
    expect(deliveries.map((row) => [row.attempt, row.status_code, row.delivered_at !== null])).toEqual([
      [2, 200, true],
      [1, 500, false],
    ]);
    // Another account sees none of them.
    const other = await gw.createCustomer({ quota: 0 });
    expect(await callbackDeliveries(other.key, taskId)).toEqual([]);
  });

  it('refuses a callback_url from an account without a callback secret with a 400 naming it, on both surfaces, and charges nothing', async () => {
    const fresh = await gw.createCustomer({ quota: 10_000_000 });
    const target = await receiver();
    const before = await gw.balance(fresh.userId);
    const flat = await as(fresh.key).post('/v1/videos', flatBody({ callback_url: target.url }));
    expect(flat.status).toBe(400);
    expect(flat.body.error).toMatchObject({
      param: 'callback_url',
      message: expect.stringContaining('POST /v1/webhooks/callback-secret'),
    });
    const multipart = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${fresh.key}`)
      .field('model', 'alpha/v6')
      .field('prompt', 'a multipart lighthouse')
      .field('callback_url', target.url);
    expect(multipart.status).toBe(400);
    expect(multipart.body.error).toMatchObject({ param: 'callback_url' });
    const unified = await as(fresh.key).post('/v1/video/generations', unifiedBody({ callback_url: target.url }));
    expect(unified.status).toBe(400);
    expect(JSON.stringify(unified.body)).toContain('callback_url');
    expect(JSON.stringify(unified.body)).toContain('POST /v1/webhooks/callback-secret');
    expect(await gw.balance(fresh.userId)).toEqual(before);
    expect((await as(fresh.key).get('/v1/videos').expect(200)).body.data).toEqual([]);

    // Once it has a secret, the same submit is taken.
    await as(fresh.key).post('/v1/webhooks/callback-secret').expect(201);
    await flatTask(fresh.key, { callback_url: target.url });
  });

  itOnSqliteOnly(kind)(
    'refuses a callback_url that is not an http(s) URL, or (without MEDIA_ALLOW_PRIVATE_HOSTS) a private host, with a 400 naming it',
    async () => {
      const before = await gw.balance(customer.userId);
      for (const callback_url of ['not a url', 'ftp://example.com/hook', 42, 'https://user:pass@example.com/hook']) {
        const res = await as(customer.key).post('/v1/videos', flatBody({ callback_url }));
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ param: 'callback_url' });
      }
      const target = await receiver();
      gw.config.mediaAllowPrivateHosts = false;
      try {
        for (const url of [target.url, 'http://10.1.2.3/hook', 'http://169.254.169.254/latest']) {
          const flat = await as(customer.key).post('/v1/videos', flatBody({ callback_url: url }));
          expect(flat.status).toBe(400);
          expect(flat.body.error).toMatchObject({ param: 'callback_url', message: expect.stringContaining('public host') });
          const unified = await as(customer.key).post('/v1/video/generations', unifiedBody({ callback_url: url }));
          expect(unified.status).toBe(400);
          expect(JSON.stringify(unified.body)).toContain('callback_url');
        }
      } finally {
        gw.config.mediaAllowPrivateHosts = true;
      }
      expect(await gw.balance(customer.userId)).toEqual(before);
      expect(target.received).toHaveLength(0);
    },
  );

  it('signs with the rotated secret from then on: the old one no longer verifies', async () => {
    const target = await receiver();
    const before = await flatTask(customer.key, { callback_url: target.url });
    await finishTasks();
    await deliver();
    const rotated = (await as(customer.key).post('/v1/webhooks/callback-secret').expect(201)).body.secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    const after = await unifiedTask(customer.key, { callback_url: target.url });
    await finishTasks();
    await deliver();

    const [first] = eventsFor(target, before);
    const [second] = eventsFor(target, after);
    expect(verifiesWith(target, first, secret)).toBe(true);
    expect(verifiesWith(target, second, rotated)).toBe(true);
    expect(verifiesWith(target, second, secret)).toBe(false);
    await expect(
      new OpenAI({ apiKey: 'unused', webhookSecret: secret }).webhooks.verifySignature(second.body, target.headersOf(second)),
    ).rejects.toThrow();
    await expect(
      new OpenAI({ apiKey: 'unused', webhookSecret: rotated }).webhooks.verifySignature(second.body, target.headersOf(second)),
    ).resolves.toBeUndefined();
    secret = rotated;
  });
});
