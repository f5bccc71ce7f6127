import { randomBytes } from 'node:crypto';
import { AlphaEmulatorServer, alphaChannelBody, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { OtlpReceiver, ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { FreshDatabase, freshDatabase } from './support/test-databases';
import { until } from './support/until';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

const SERVER = 2;
const CLIENT = 3;

async function call(gateway: GatewayProcess, token: string, method: string, path: string, body?: unknown, headers = {}): Promise<any> {
  const res = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * OpenTelemetry traces as an operator's collector receives them (OTLP/HTTP on loopback), from a
 * gateway process: tracing is on only with OTEL_EXPORTER_OTLP_ENDPOINT, which main.ts reads before Nest boots.
 */
describe('traces (OTLP/HTTP)', () => {
  let alpha: AlphaEmulatorServer;
  let collector: OtlpReceiver;
  let hooks: WebhookReceiver;
  let gateway: GatewayProcess | undefined;
  let database: FreshDatabase | undefined;

  beforeAll(async () => {
    alpha = await startAlphaEmulator();
    collector = await startOtlpReceiver();
    hooks = await startWebhookReceiver();
  });
  afterEach(async () => {
    await gateway?.crash();
    await database?.drop();
    gateway = database = undefined;
  });
  afterAll(async () => {
    await alpha?.close();
    await collector?.close();
    await hooks?.stop();
  });

  /** A gateway process with a channel, a customer's key and a webhook endpoint; `env` decides tracing. */
  async function gatewayWithCustomer(env: Record<string, string>): Promise<{ gateway: GatewayProcess; key: string }> {
    database = await freshDatabase('sqlite');
    gateway = await startGatewayProcess({
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      TASK_SYNC_INTERVAL_MS: '100',
      WEBHOOK_DELIVERY_INTERVAL_MS: '200',
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      // Batches sent every 100 ms, not every 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    });
    await call(gateway, ADMIN_TOKEN, 'POST', '/api/admin/channels', alphaChannelBody(alpha, { settings: { poll_interval_ms: 300 } }));
    const user = await call(gateway, ADMIN_TOKEN, 'POST', '/api/admin/users', { username: 'traced', quota: 1_000_000 });
    const { key } = await call(gateway, ADMIN_TOKEN, 'POST', `/api/admin/users/${user.id}/keys`, { name: 'k' });
    await call(gateway, key, 'POST', '/v1/webhooks', { url: hooks.url });
    return { gateway, key };
  }

  /** A task submitted with the client's `traceparent`, followed until its webhook arrived. */
  async function taskToItsWebhook(gateway: GatewayProcess, key: string, traceparent: string): Promise<string> {
    alpha.scriptNext([5, 1]);
    const task = await call(
      gateway,
      key,
      'POST',
      '/v1/videos',
      { model: 'alpha/v6', prompt: 'traced', duration: 5, resolution: '720P' },
      { traceparent },
    );
    await until('the task to be told to the endpoint', () => hooks.received.some((hook) => hook.json?.data?.id === task.id));
    return task.id;
  }

  it("one search by gateway.task_id finds a task's submit, polls, archive, settlement and webhook delivery; a client's traceparent is the request span's parent", async () => {
    const { gateway, key } = await gatewayWithCustomer({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
    const clientTraceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const taskId = await taskToItsWebhook(gateway, key, `00-${clientTraceId}-${clientSpanId}-01`);

    const ofTask = (spans: ReceivedSpan[]) => spans.filter((span) => span.attributes['gateway.task_id'] === taskId);
    const named = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
    const spans = await until('the task-tagged spans to arrive', () => collector.spans(), {
      done: (all) =>
        ['task.submit', 'task.poll', 'video.archive', 'task.settle', 'webhook.deliver'].every(
          (name) => named(ofTask(all), name).length > 0,
        ),
    });
    const mine = ofTask(spans);
    expect(new Set(spans.map((span) => span.serviceName))).toEqual(new Set(['gateway-under-test']));

    // The submit's request span: a child of the client's span, in the client's trace, named by its route, found by the task id.
    const [request] = named(mine, 'POST /v1/videos');
    expect(request).toMatchObject({ kind: SERVER, traceId: clientTraceId, parentSpanId: clientSpanId });
    expect(request.attributes).toMatchObject({ 'http.route': '/v1/videos', 'http.response.status_code': 200 });
    // Its hand-over to the provider, and the provider's create call under that, are in the same trace.
    const [submit] = named(mine, 'task.submit');
    expect(submit).toMatchObject({ traceId: clientTraceId, parentSpanId: request.spanId });
    const create = spans.filter((span) => span.kind === CLIENT && span.parentSpanId === submit.spanId);
    expect(create).toHaveLength(1);
    expect(create[0].attributes).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1' });
    expect(String(create[0].attributes['url.full'])).toMatch(new RegExp(`^${alpha.url}/`));

    // Each poll reads the task at the provider: a client span under it.
    const polls = named(mine, 'task.poll');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    for (const poll of polls) expect(spans.filter((span) => span.kind === CLIENT && span.parentSpanId === poll.spanId)).toHaveLength(1);
    expect(polls.map((poll) => poll.attributes['gateway.outcome'])).toContain('settled');
    // The archive fetched the video from the provider and stored it; the settlement happened inside it.
    const [archive] = named(mine, 'video.archive');
    expect(archive.attributes['gateway.outcome']).toBe('archived');
    expect(named(mine, 'task.settle')[0].parentSpanId).toBe(archive.spanId);
    expect(named(mine, 'webhook.deliver')[0].attributes['gateway.outcome']).toBe('delivered');

    // No credential leaves in a span: neither the channel's key nor the customer's.
    const exported = collector.exports.join('\n');
    expect(exported).not.toContain(alpha.apiKey);
    expect(exported).not.toContain(key);
    expect(exported.toLowerCase()).not.toContain('authorization');
  }, 120_000);

  it('a graceful stop (SIGTERM) sends the spans still waiting for their batch', async () => {
    const { gateway: stopping } = await gatewayWithCustomer({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    const traceId = randomBytes(16).toString('hex');
    const res = await fetch(`${stopping.url}/health`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(200);
    expect(collector.spans().filter((span) => span.traceId === traceId)).toEqual([]);
    await stopping.stop();
    gateway = undefined;
    const [span] = collector.spans().filter((span) => span.traceId === traceId);
    expect(span).toMatchObject({
      kind: SERVER,
      attributes: { 'http.request.method': 'GET', 'url.path': '/health', 'http.response.status_code': 200 },
    });
  }, 120_000);

  it('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is sent, even with the SDK’s other variables pointing at a collector', async () => {
    const before = collector.exports.length;
    const { gateway, key } = await gatewayWithCustomer({
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      // An SDK started by anything would send here.
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
    });
    await taskToItsWebhook(gateway, key, `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(collector.exports.length).toBe(before);
  }, 120_000);
});
