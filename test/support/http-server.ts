import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json?: unknown;
  /** When the request finished arriving (ms epoch). */
  at: number;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface LoopbackServer {
  url: string;
  requests: RecordedRequest[];
  server: Server;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request (the fake upstreams build on it). */
export async function startLoopbackServer(handler: Handler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The handler answers its own errors; `void` because 'end' listeners return nothing.
    req.on(
      'end',
      () =>
        void (async () => {
          const url = new URL(req.url ?? '/', 'http://127.0.0.1');
          const body = Buffer.concat(chunks);
          const recorded: RecordedRequest = {
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            body,
            at: Date.now(),
          };
          if ((req.headers['content-type'] ?? '').includes('application/json') && body.length) {
            try {
              recorded.json = JSON.parse(body.toString('utf8'));
            } catch {
              /* keep the raw body */
            }
          }
          requests.push(recorded);
          try {
            await handler(recorded, res);
          } catch (error) {
            res.statusCode = 500;
            res.end(String(error));
          }
        })(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
