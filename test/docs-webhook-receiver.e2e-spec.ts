import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebhookDeliveryService } from '../src/webhooks/webhook-delivery.service';
import { WebhookEventPublisher } from '../src/webhooks/webhook-event-publisher';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { freePort } from './support/gateway-process';
import { until } from './support/until';
import { startGateway, TestGateway } from './support/gateway';

const ROOT = join(__dirname, '..');

/** The documented webhook receiver (docs/api.md, the `js` block after "A receiver that verifies"), as written there. */
function readmeReceiver(): string {
  const readme = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const start = readme.indexOf('A receiver that verifies with the official `openai` SDK');
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(start));
  if (start < 0 || !block) throw new Error('docs/api.md no longer has its webhook receiver block');
  return block[1];
}

/** The documented receiver runs as a newcomer would run it, and verifies a real delivery. */
describe('the documented webhook receiver', () => {
  let gw: TestGateway;
  let alpha: AlphaEmulatorServer;
  let receiver: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    alpha = await startAlphaEmulator();
    gw = await startGateway('sqlite', { WEBHOOK_DELIVERY_INTERVAL_MS: '0' });
    await gw.createChannel(alphaChannelBody(alpha));
  });
  afterAll(async () => {
    receiver?.kill('SIGKILL');
    await gw?.close();
    await alpha?.close();
  });

  it('starts, accepts a signed video.completed and refuses a forged one', async () => {
    const customer = await gw.createCustomer({ quota: 1_000_000 });
    const auth = { Authorization: `Bearer ${customer.key}` };
    const port = await freePort();
    const endpoint = await gw.http
      .post('/v1/webhooks')
      .set(auth)
      .send({ url: `http://127.0.0.1:${port}/hooks/video` })
      .expect(201);

    // Saved inside the project, so that `express` and `openai` resolve from its node_modules.
    const dir = join(ROOT, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-receiver.mjs');
    writeFileSync(file, readmeReceiver().replace('app.listen(8080)', `app.listen(${port})`));
    receiver = spawn(process.execPath, [file], {
      env: { ...process.env, GATEWAY_WEBHOOK_SECRET: endpoint.body.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout!.on('data', (chunk) => (output += chunk));
    receiver.stderr!.on('data', (chunk) => (output += chunk));
    let exited = false;
    receiver.on('exit', () => (exited = true));

    const forged = async () =>
      fetch(`http://127.0.0.1:${port}/hooks/video`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': 'msg_1',
          'webhook-timestamp': `${Math.floor(Date.now() / 1000)}`,
          'webhook-signature': 'v1,AAAA',
        },
        body: '{}',
      }).then(
        (res) => res.status,
        () => 0,
      );
    const answer = await until(
      'the receiver to answer a forged delivery (or exit)',
      async () => ({ exited, status: await forged(), output }),
      {
        done: (seen) => seen.exited || seen.status !== 0,
        timeoutMs: 30_000,
        everyMs: 20,
      },
    );
    expect(answer).toEqual({ exited: false, status: 400, output: '' });

    alpha.scriptNext([1]);
    const task = await gw.http
      .post('/v1/videos')
      .set(auth)
      .send({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' })
      .expect(200);
    gw.clock.advance(10_000);
    await gw.sync();
    await gw.app.get(WebhookEventPublisher).publishDueEvents();
    await gw.app.get(WebhookDeliveryService).deliverDueWebhooks();
    await until('the receiver to print ready', () => output, {
      done: (printed) => printed.includes('ready:'),
      timeoutMs: 30_000,
      everyMs: 20,
    });
    expect(output).toContain(`ready: ${task.body.id} `);
    const deliveries = await gw.http.get(`/v1/webhooks/${endpoint.body.id}/deliveries`).set(auth).expect(200);
    expect(deliveries.body.data[0]).toMatchObject({ type: 'video.completed', status_code: 204 });
  });
});
