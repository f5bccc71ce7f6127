import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AppConfig } from '../config/app-config';
import { WebhookSender } from './webhook-sender';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('WebhookSender', () => {
  let server: Server;
  let url: string;
  let connections = 0;
  const received: Array<{ path: string; headers: Record<string, string>; body: string }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          headers: req.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (req.url === '/moved') res.writeHead(302, { location: 'http://example.com/' }).end();
        else if (req.url === '/broken') res.writeHead(500).end('a body the sender drops');
        else res.writeHead(204).end();
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const sender = (allowPrivate: boolean) => new WebhookSender({ mediaAllowPrivateHosts: allowPrivate } as AppConfig);

  it('sends signed events one after another over one kept-alive connection, whatever the answer', async () => {
    const send = sender(true);
    const payload = JSON.stringify({ id: 'evt_1', type: 'video.completed' });
    const results = [];
    for (const path of ['/a', '/broken', '/a']) results.push(await send.send(`${url}${path}`, SECRET, 'evt_1', payload, 1_795_000_000_000));
    send.onApplicationShutdown();
    expect(results).toEqual([
      { outcome: 'delivered', statusCode: 204, error: null },
      { outcome: 'http_error', statusCode: 500, error: 'HTTP 500' },
      { outcome: 'delivered', statusCode: 204, error: null },
    ]);
    expect(connections).toBe(1);
    const first = received[0];
    expect(first.body).toBe(payload);
    expect(first.headers['webhook-id']).toBe('evt_1');
    expect(first.headers['webhook-timestamp']).toBe('1795000000');
    expect(new Webhook(SECRET).sign('evt_1', new Date(1_795_000_000_000), payload)).toBe(first.headers['webhook-signature']);
  });

  it('follows no redirect, and refuses a private address unless private hosts are allowed', async () => {
    expect(await sender(true).send(`${url}/moved`, SECRET, 'evt_2', '{}', Date.now())).toEqual({
      outcome: 'http_error',
      statusCode: null,
      error: 'redirects are not followed',
    });
    const before = received.length;
    const refused = await sender(false).send(`${url}/a`, SECRET, 'evt_3', '{}', Date.now());
    expect(refused.outcome).toBe('refused');
    expect(received).toHaveLength(before);
  });
});
