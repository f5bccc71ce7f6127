import express from 'express';
import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import { sendJson } from './json-reply';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on its own connection, the raw answer (no client-side decoding). */
function call(url: string, method: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
        resolve({ status: res.statusCode!, headers: rest, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const BODIES: Array<[string, number, unknown]> = [
  ['object', 200, { id: 'task_1', status: 'queued', progress: 0, nested: { list: [1, 'two', null] } }],
  ['unicode', 200, { prompt: 'un phare au crépuscule 🌅 — 灯塔' }],
  ['array', 200, [{ a: 1 }, { b: 2 }]],
  ['error', 404, { error: { message: 'video task_x not found', type: 'invalid_request_error', code: 'not_found' } }],
  ['created', 201, { ok: true }],
  ['a 205', 205, { reset: true }],
  ['large', 200, { text: 'x'.repeat(70_000) }],
];

describe('sendJson', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    for (const [name, status, body] of BODIES) {
      app.all(`/express/${encodeURIComponent(name)}`, (_req, res) => void res.status(status).json(body));
      app.all(`/send-json/${encodeURIComponent(name)}`, (_req, res) => sendJson(res, status, body));
    }
    // A header set before the answer that the writer must leave to Express (a type of its own).
    app.all('/express/typed', (_req, res) => void res.type('text/plain').status(200).json({ a: 1 }));
    app.all('/send-json/typed', (_req, res) => sendJson(res.type('text/plain'), 200, { a: 1 }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const names = [...BODIES.map(([name]) => name), 'typed'];

  it.each(names)('answers %s exactly as Express res.status().json() does, to GET, HEAD, POST and a conditional GET', async (name) => {
    const path = encodeURIComponent(name);
    for (const method of ['GET', 'HEAD', 'POST']) {
      const [viaExpress, viaSendJson] = await Promise.all([
        call(`${base}/express/${path}`, method),
        call(`${base}/send-json/${path}`, method),
      ]);
      expect(viaSendJson).toEqual(viaExpress);
    }
    const { headers } = await call(`${base}/express/${path}`, 'GET');
    for (const [method, condition] of [
      ['GET', String(headers.etag)],
      ['HEAD', String(headers.etag)],
      ['GET', `"other", ${String(headers.etag)}`],
      ['GET', '"other"'],
      ['POST', String(headers.etag)],
    ]) {
      const ifNoneMatch = { 'If-None-Match': condition };
      const [viaExpress, viaSendJson] = await Promise.all([
        call(`${base}/express/${path}`, method, ifNoneMatch),
        call(`${base}/send-json/${path}`, method, ifNoneMatch),
      ]);
      expect(viaSendJson).toEqual(viaExpress);
    }
  });

  it('answers a fresh conditional GET with 304 and the tag, no body', async () => {
    const first = await call(`${base}/send-json/object`, 'GET');
    const again = await call(`${base}/send-json/object`, 'GET', { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.body).toBe('');
  });
});
