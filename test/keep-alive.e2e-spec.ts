import { Agent, request } from 'node:http';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { timeUntil } from './support/own-redis';
import { admin, customer } from './support/process-api';
import { FreshDatabase, freshDatabase } from './support/test-databases';

interface Answer {
  status: number;
  body: string;
  /** Whether the request went out on a connection an earlier one had used. */
  reused: boolean;
}

/** One request through `agent` (node:http, so the test sees which connection it went on). */
function send(
  agent: Agent,
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${url}${path}`, {
      agent,
      method,
      headers: payload === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Keep-alive connections as a client behind a load balancer uses them: one left idle longer than
 * Node's default 5 s is still the gateway's to serve (the client, not the gateway, closes idle ones),
 * and a connection busy when the gateway is told to stop does not hold the process for the keep-alive
 * timeout after its last answer.
 */
describe('keep-alive connections (a gateway process)', () => {
  let database: FreshDatabase;
  let alpha: AlphaEmulatorServer;
  let gateway: GatewayProcess;
  let key: string;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    alpha = await startAlphaEmulator();
    gateway = await startGatewayProcess({
      DATABASE_URL: database.url,
      ADMIN_TOKEN,
      MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
      TASK_SYNC_INTERVAL_MS: '0',
      ASSET_FOLLOW_UP_INTERVAL_MS: '0',
    });
    await admin(gateway, 'POST', '/api/admin/channels', alphaChannelBody(alpha, { name: 'alpha' }));
    ({ key } = await customer(gateway, { quota: 10_000_000 }));
  }, 120_000);
  afterAll(async () => {
    agent.destroy();
    await gateway?.crash();
    await alpha?.close();
    await database?.drop();
  });

  it('serves a second request on a connection left idle for 6 s', async () => {
    expect((await send(agent, gateway.url, 'GET', '/health')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const again = await send(agent, gateway.url, 'GET', '/health');
    expect(again.status).toBe(200);
    expect(again.reused).toBe(true);
  }, 30_000);

  it('told to stop while a submit is in flight: answers it, then closes that connection and exits', async () => {
    let release!: () => void;
    alpha.inject('generate', { until: new Promise<void>((resolve) => (release = resolve)) }, 1);
    const callsBefore = alpha.calls('generate').length;
    const submitted = send(
      agent,
      gateway.url,
      'POST',
      '/v1/videos',
      { Authorization: `Bearer ${key}` },
      { model: 'alpha/v5', prompt: 'a kite' },
    );
    await timeUntil(async () => alpha.calls('generate').length > callsBefore, 10_000, 'the submit reaches the provider');
    const exited = gateway.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const answer = await submitted;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: expect.stringMatching(/^task_/) });
    // Without closing the connection once idle, the process would wait out the 65 s keep-alive (past this test's limit).
    await exited;
    // Nest closes the app, then ends the process with the signal it was sent.
    expect(gateway.child.exitCode ?? gateway.child.signalCode).toBe('SIGTERM');
  }, 30_000);
});
