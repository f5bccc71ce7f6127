/**
 * A scriptable OpenAI-compatible Videos API on a real loopback HTTP server (docs/upstream-protocols.md,
 * Family O), under `/v1` like OpenAI's:
 *
 *   const fake = await startFakeOpenAiUpstream();        // api key 'openai-test-key'
 *   channel base_url: `${fake.url}/v1`, api_key: fake.apiKey
 *
 * `POST /v1/videos` (JSON or multipart) creates `video_<n>`; `GET /v1/videos/<id>` answers the
 * video's script one step per query, repeating the last; `GET /v1/videos/<id>/content` serves
 * `fake.videoBytes` (Range honoured); `GET /v1/videos` lists. Bad key: 401.
 * - `fake.defaultScript` (default `['queued', 'in_progress', 'completed']`), `fake.scriptNext([...])`;
 *   a step is a status or `{ status: 'failed', code }` or any `{ body }` answered as it is.
 * - `fake.failNextSubmit({ status, body?, headers? })`: the next submit answers this error.
 * - `fake.submits()`: every submit, parsed (`json`, or multipart `fields` and `file`).
 */
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type OpenAiStep = 'queued' | 'in_progress' | 'completed' | { status: 'failed'; code?: string; message?: string } | { body: unknown };

export interface ParsedSubmit {
  request: RecordedRequest;
  json?: Record<string, unknown>;
  fields?: Record<string, string>;
  file?: { name: string; type: string; bytes: Buffer };
}

export interface FakeOpenAiUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  defaultScript: OpenAiStep[];
  videoBytes: Buffer;
  submits(): Promise<ParsedSubmit[]>;
  contentRequests(): RecordedRequest[];
  scriptNext(steps: OpenAiStep[]): void;
  failNextSubmit(error: { status: number; body?: unknown; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

export async function startFakeOpenAiUpstream(options: { apiKey?: string } = {}): Promise<FakeOpenAiUpstream> {
  const apiKey = options.apiKey ?? 'openai-test-key';
  const videos = new Map<string, { model: string; seconds: string; size: string; script: OpenAiStep[]; queries: number }>();
  const submitFailures: Array<{ status: number; body?: unknown; headers?: Record<string, string> }> = [];
  let nextScript: OpenAiStep[] | null = null;
  let counter = 0;
  const fake = {} as FakeOpenAiUpstream;
  const server: LoopbackServer = await startLoopbackServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return fail(res, 401, 'invalid_api_key', 'Incorrect API key provided: sk-abc***xyz.');
    const content = /^\/v1\/videos\/([^/]+)\/content$/.exec(req.path);
    const one = /^\/v1\/videos\/([^/]+)$/.exec(req.path);
    if (req.method === 'POST' && req.path === '/v1/videos') {
      const failure = submitFailures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        return void res.end(
          JSON.stringify(
            failure.body ?? { error: { message: 'failure at http://10.0.0.1/internal', type: 'server_error', param: null, code: null } },
          ),
        );
      }
      const parsed = await parse(req);
      const fields = parsed.json ?? parsed.fields ?? {};
      const id = `video_${++counter}`;
      videos.set(id, {
        model: String(fields.model),
        seconds: String(fields.seconds ?? '4'),
        size: String(fields.size ?? '720x1280'),
        script: nextScript ?? fake.defaultScript,
        queries: 0,
      });
      nextScript = null;
      return sendJson(res, 200, render(id, 'queued'));
    }
    if (req.method === 'GET' && req.path === '/v1/videos')
      return sendJson(res, 200, { object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    if (content && (req.method === 'GET' || req.method === 'HEAD')) {
      if (!videos.has(content[1])) return fail(res, 404, null, 'not found');
      return serveBytes(req, res, fake.videoBytes);
    }
    if (one && req.method === 'GET') {
      const video = videos.get(one[1]);
      if (!video) return fail(res, 404, null, `Video with id '${one[1]}' not found.`);
      const step = video.script[Math.min(video.queries++, video.script.length - 1)];
      if (typeof step === 'object' && 'body' in step) return sendJson(res, 200, step.body);
      if (typeof step === 'object')
        return sendJson(res, 200, {
          ...render(one[1], 'failed'),
          error: { code: step.code ?? 'video_generation_failed', message: step.message ?? 'Internal failure at 10.1.2.3' },
        });
      return sendJson(res, 200, render(one[1], step));
    }
    fail(res, 404, null, 'no such route');
  });

  function render(id: string, status: string) {
    const video = videos.get(id)!;
    return {
      id,
      object: 'video',
      model: video.model,
      status,
      progress: status === 'completed' ? 100 : status === 'in_progress' ? 40 : 0,
      created_at: 1_700_000_000,
      seconds: video.seconds,
      size: video.size,
    };
  }

  Object.assign(fake, {
    url: server.url,
    apiKey,
    requests: server.requests,
    defaultScript: ['queued', 'in_progress', 'completed'],
    videoBytes: Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251)),
    ]),
    submits: () => Promise.all(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos').map(parse)),
    contentRequests: () => server.requests.filter((r) => r.path.endsWith('/content')),
    scriptNext: (steps: OpenAiStep[]) => void (nextScript = steps),
    failNextSubmit: (error: { status: number; body?: unknown; headers?: Record<string, string> }) => void submitFailures.push(error),
    close: () => server.close(),
  });
  return fake;
}

async function parse(req: RecordedRequest): Promise<ParsedSubmit> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) return { request: req, json: req.json as Record<string, unknown> };
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': type },
    body: new Uint8Array(req.body),
  }).formData();
  const parsed: ParsedSubmit = { request: req, fields: {} };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parsed.fields![name] = value;
    else parsed.file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return parsed;
}

function serveBytes(req: RecordedRequest, res: ServerResponse, bytes: Buffer): void {
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const start = range ? Number(range[1]) : 0;
  const end = range && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
  const slice = bytes.subarray(start, end + 1);
  res.writeHead(range ? 206 : 200, {
    'content-type': 'video/mp4',
    'content-length': slice.length,
    'accept-ranges': 'bytes',
    ...(range ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : slice);
}

function fail(res: ServerResponse, status: number, code: string | null, message: string): void {
  sendJson(res, status, { error: { message, type: status === 401 ? 'authentication_error' : 'invalid_request_error', param: null, code } });
}
