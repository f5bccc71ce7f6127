/**
 * A scriptable MiniMax video API v1 on a real loopback HTTP server (docs/upstream-protocols.md,
 * Family MiniMax Hailuo):
 *
 *   const fake = await startFakeMinimaxUpstream();       // api key 'minimax-test-key'
 *   channel base_url: fake.url, api_key: fake.apiKey
 *
 * Every API call (submit, query, files/retrieve) needs `Authorization: Bearer <key>`; a wrong key is
 * HTTP 200 with `base_resp.status_code` 1004, as MiniMax answers. `POST /v1/video_generation` makes a
 * numeric task id; `GET /v1/query/video_generation?task_id=` answers the task's script one step per
 * query, repeating the last; `GET /v1/files/retrieve?file_id=` hands out a pre-signed download URL
 * (`/cdn/<file>.mp4?Expires&Signature`, checked, no key) serving `fake.videoBytes`.
 * - `fake.scriptNext([...])`: steps `Queueing`, `Processing`, `Success` or `{ fail: code }`.
 * - `fake.failNextSubmit(code)`: the next submit answers HTTP 200 with this `base_resp` code.
 */
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type MinimaxStep = 'Queueing' | 'Processing' | 'Success' | { fail: number };

export interface FakeMinimaxUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  videoBytes: Buffer;
  submits(): Array<Record<string, unknown>>;
  downloads(): RecordedRequest[];
  scriptNext(steps: MinimaxStep[]): void;
  failNextSubmit(code: number): void;
  close(): Promise<void>;
}

const SIGNING_KEY = 'fake-oss-signing-key';
const sign = (file: string, expires: string) => createHmac('sha256', SIGNING_KEY).update(`${file}:${expires}`).digest('hex');
const base = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } });

export async function startFakeMinimaxUpstream(options: { apiKey?: string } = {}): Promise<FakeMinimaxUpstream> {
  const apiKey = options.apiKey ?? 'minimax-test-key';
  const tasks = new Map<string, { script: MinimaxStep[]; queries: number; fileId: string }>();
  const submitFailures: number[] = [];
  let nextScript: MinimaxStep[] | null = null;
  let counter = 106_916_112_212_000;
  const fake = {} as FakeMinimaxUpstream;
  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    const cdn = /^\/cdn\/(\d+)\.mp4$/.exec(req.path);
    if (cdn && req.method === 'GET') {
      const expires = req.query.get('Expires') ?? '';
      if (req.query.get('Signature') !== sign(cdn[1], expires) || Number(expires) * 1000 < Date.now())
        return void res.writeHead(403).end('AccessDenied');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fake.videoBytes.length });
      return void res.end(fake.videoBytes);
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return sendJson(res, 200, { task_id: '', ...base(1004, 'login fail: Please carry the API secret key in the Authorization field') });
    if (req.method === 'POST' && req.path === '/v1/video_generation') {
      const failure = submitFailures.shift();
      if (failure !== undefined)
        return sendJson(res, 200, { task_id: '', ...base(failure, 'failure at http://10.0.0.1/internal, key sk-leaked123456') });
      const body = req.json as Record<string, unknown>;
      if (typeof body?.model !== 'string' || typeof body.prompt !== 'string' || !Number.isInteger(body.duration))
        return sendJson(res, 200, { task_id: '', ...base(2013, 'invalid params') });
      const id = String(++counter);
      tasks.set(id, { script: nextScript ?? ['Queueing', 'Processing', 'Success'], queries: 0, fileId: String(counter + 1_000_000) });
      nextScript = null;
      return sendJson(res, 200, { task_id: id, ...base(0, 'success') });
    }
    if (req.method === 'GET' && req.path === '/v1/query/video_generation') return query(res, req.query.get('task_id') ?? '');
    if (req.method === 'GET' && req.path === '/v1/files/retrieve') return retrieve(res, req.query.get('file_id') ?? '');
    sendJson(res, 404, { error: 'no such route' });
  });

  function query(res: ServerResponse, id: string): void {
    const task = tasks.get(id);
    if (!task) return sendJson(res, 200, { task_id: id, status: '', file_id: '', ...base(2013, 'invalid params, task not found') });
    const step = task.script[Math.min(task.queries++, task.script.length - 1)];
    if (typeof step === 'object')
      return sendJson(res, 200, { task_id: id, status: 'Fail', file_id: '', ...base(step.fail, 'blocked, see http://10.0.0.7/x') });
    if (step === 'Success')
      return sendJson(res, 200, {
        task_id: id,
        status: 'Success',
        file_id: task.fileId,
        video_width: 1366,
        video_height: 768,
        ...base(0, 'success'),
      });
    sendJson(res, 200, { task_id: id, status: step, file_id: '', ...base(0, 'success') });
  }

  function retrieve(res: ServerResponse, fileId: string): void {
    if (![...tasks.values()].some((task) => task.fileId === fileId))
      return sendJson(res, 200, base(2013, 'invalid params, file not found'));
    const expires = String(Math.floor(Date.now() / 1000) + 32_400);
    const download_url = `${server.url}/cdn/${fileId}.mp4?Expires=${expires}&OSSAccessKeyId=fake&Signature=${sign(fileId, expires)}`;
    sendJson(res, 200, {
      file: {
        file_id: Number(fileId),
        bytes: fake.videoBytes.length,
        created_at: 1_755_501_139,
        filename: 'output.mp4',
        purpose: 'video_generation',
        download_url,
      },
      ...base(0, 'success'),
    });
  }

  Object.assign(fake, {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes: Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251)),
    ]),
    submits: () =>
      server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/video_generation').map((r) => r.json as Record<string, unknown>),
    downloads: () => server.requests.filter((r) => r.path.startsWith('/cdn/')),
    scriptNext: (steps: MinimaxStep[]) => void (nextScript = steps),
    failNextSubmit: (code: number) => void submitFailures.push(code),
    close: () => server.close(),
  });
  return fake;
}
