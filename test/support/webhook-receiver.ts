import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  json: any;
  at: number;
}

/**
 * A webhook receiver on loopback that records every POST and answers `status` (200 unless set);
 * `hang` leaves requests unanswered. `stop()` and `start()` take it down and bring it back on the
 * same port (an endpoint that is down for a while).
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  status: number;
  hang: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Plain string headers, as the SDKs' verifiers take them. */
  headersOf(request: ReceivedWebhook): Record<string, string>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  let server: Server | null = null;
  let port = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    status: 200,
    hang: false,
    async start() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(body);
          } catch {
            /* kept raw */
          }
          receiver.received.push({ headers: req.headers, body, json, at: Date.now() });
          if (receiver.hang) return;
          res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
        });
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}${path}`;
    },
    async stop() {
      const current = server;
      server = null;
      if (!current) return;
      current.closeAllConnections();
      await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    headersOf(request) {
      return Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
    },
  };
  await receiver.start();
  return receiver;
}
