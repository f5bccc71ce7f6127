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
 * `hang` leaves requests unanswered, `delayMs` answers them late. `stop()` and `start()` take it down and bring it back on the
 * same port (an endpoint that is down for a while).
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  status: number;
  hang: boolean;
  /** Answers this long after the body arrived (a healthy endpoint that takes its time). */
  delayMs: number;
  /** The most POSTs it held at once (received, not yet answered or given up by the sender). */
  mostAtOnce: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Plain string headers, as the SDKs' verifiers take them. */
  headersOf(request: ReceivedWebhook): Record<string, string>;
}

export async function startWebhookReceiver(path = '/hooks'): Promise<WebhookReceiver> {
  let server: Server | null = null;
  let port = 0;
  let atOnce = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    status: 200,
    hang: false,
    delayMs: 0,
    mostAtOnce: 0,
    async start() {
      server = createServer((req, res) => {
        receiver.mostAtOnce = Math.max(receiver.mostAtOnce, ++atOnce);
        res.on('close', () => atOnce--);
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
          const answer = () => res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
          if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
          else answer();
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
      return Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
      );
    },
  };
  await receiver.start();
  return receiver;
}

/** The events a receiver got about one task (`data.id`). */
export const eventsFor = (target: WebhookReceiver, taskId: string): ReceivedWebhook[] =>
  target.received.filter((request) => request.json?.data?.id === taskId);
