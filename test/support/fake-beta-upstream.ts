/**
 * A scriptable family B provider on a real loopback HTTP server (docs/upstream-protocols.md, Family B).
 *
 *   const fake = await startFakeBetaUpstream();          // api key 'beta-test-key'
 *   channel base_url: fake.url, api_key: fake.apiKey
 *
 * Submit `POST /api/v1/services/aigc/video-generation/video-synthesis` checks Bearer (401
 * InvalidApiKey) and `X-DashScope-Async: enable` (403 AccessDenied), then creates task
 * `beta-task-<n>`; query `GET /api/v1/tasks/<id>` answers the task's script one step per query,
 * repeating the last step (unknown ids answer UNKNOWN, as the provider does).
 *
 * Scripting:
 * - `fake.defaultScript = [...]` (default `['PENDING', 'RUNNING', 'SUCCEEDED']`);
 *   `fake.scriptNext([...])` sets the script of the next submitted task only.
 *   A step is a status (`'PENDING' | 'RUNNING' | 'SUCCEEDED'`), a failure
 *   `{ status: 'FAILED' | 'CANCELED' | 'UNKNOWN', code?, message? }`, or an HTTP error
 *   `{ http: 500, body? }` for that one query (`{ http: 200, body }` answers any JSON body; `raw`
 *   instead of `body` sends those bytes as they are, e.g. a body of 60 MB).
 * - `fake.failNextSubmit({ status, code, message, headers? })` / `fake.failNextQuery(...)`: the
 *   next submit (query) answers this synchronous error instead; queue several by calling again.
 * - `fake.serveMedia(name, bytes)` serves a media file at `${fake.url}/media/<name>` (honours
 *   `Range`), returning its URL; `fake.videoBytes` is what the signed video links serve;
 *   `fake.expireVideoLinks()` makes the links handed out so far answer 403 (later queries sign anew).
 * - Recorded traffic: `fake.requests` (everything), `fake.submits()`, `fake.queries()`.
 * SUCCEEDED bodies carry usage numbers written as floats (`5.0`), as the provider sometimes does.
 */
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type BetaFailureStatus = 'FAILED' | 'CANCELED' | 'UNKNOWN';
export type BetaStep =
  | 'PENDING'
  | 'RUNNING'
  | 'SUCCEEDED'
  | { status: BetaFailureStatus; code?: string; message?: string }
  | { http: number; body?: unknown; raw?: Buffer | string };

export interface InjectedError {
  status: number;
  code?: string;
  message?: string;
  headers?: Record<string, string>;
}

export interface FakeBetaTask {
  id: string;
  body: Record<string, unknown>;
  script: BetaStep[];
  queries: number;
}

export const SUBMIT_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';

export interface FakeBetaUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  tasks: Map<string, FakeBetaTask>;
  defaultScript: BetaStep[];
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  /** Makes every video link handed out so far answer 403, as an expired signed URL does. */
  expireVideoLinks(): void;
  queries(): RecordedRequest[];
  scriptNext(steps: BetaStep[]): void;
  failNextSubmit(error: InjectedError): void;
  failNextQuery(error: InjectedError): void;
  serveMedia(name: string, bytes: Buffer): string;
  close(): Promise<void>;
}

/** Small but real file heads for the gateway's format sniffing. */
export const SAMPLE_MEDIA = {
  png: Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64)]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]),
  mp4: Buffer.concat([Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'), Buffer.alloc(64)]),
  html: Buffer.from('<!doctype html><html><body>not an image</body></html>'),
};

export async function startFakeBetaUpstream(options: { apiKey?: string } = {}): Promise<FakeBetaUpstream> {
  const apiKey = options.apiKey ?? 'beta-test-key';
  const tasks = new Map<string, FakeBetaTask>();
  const media = new Map<string, Buffer>();
  const submitErrors: InjectedError[] = [];
  const queryErrors: InjectedError[] = [];
  let nextScript: BetaStep[] | null = null;
  let counter = 0;
  let linkGeneration = 1;
  let server: LoopbackServer;

  const fake: FakeBetaUpstream = {
    url: '',
    apiKey,
    requests: [],
    tasks,
    defaultScript: ['PENDING', 'RUNNING', 'SUCCEEDED'],
    videoBytes: Buffer.concat([SAMPLE_MEDIA.mp4, Buffer.from('fake family B video bytes')]),
    submits: () => fake.requests.filter((r) => r.method === 'POST' && r.path === SUBMIT_PATH),
    queries: () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/tasks/')),
    scriptNext: (steps) => void (nextScript = steps),
    expireVideoLinks: () => void linkGeneration++,
    failNextSubmit: (error) => void submitErrors.push(error),
    failNextQuery: (error) => void queryErrors.push(error),
    serveMedia(name, bytes) {
      media.set(name, bytes);
      return `${fake.url}/media/${name}`;
    },
    close: () => server.close(),
  };

  const sendError = (res: ServerResponse, error: InjectedError) => {
    const text = JSON.stringify({
      request_id: `req-${++counter}`,
      code: error.code ?? 'InternalError',
      message: error.message ?? 'injected error',
    });
    res.writeHead(error.status, { 'content-type': 'application/json', ...(error.headers ?? {}) });
    res.end(text);
  };

  const authorized = (req: RecordedRequest, res: ServerResponse): boolean => {
    if (req.headers.authorization === `Bearer ${apiKey}`) return true;
    sendError(res, { status: 401, code: 'InvalidApiKey', message: 'Invalid API-key provided.' });
    return false;
  };

  server = await startLoopbackServer((req, res) => {
    if (req.path.startsWith('/videos/')) {
      if (req.query.get('Signature') !== `sig-${linkGeneration}`)
        return sendJson(res, 403, { code: 'AccessDenied', message: 'Request has expired.' });
      return serveBytes(req, res, fake.videoBytes);
    }
    if (req.path.startsWith('/media/')) return serveBytes(req, res, media.get(req.path.slice('/media/'.length)));
    if (req.method === 'POST' && req.path === SUBMIT_PATH) {
      if (!authorized(req, res)) return;
      if (req.headers['x-dashscope-async'] !== 'enable') {
        return sendError(res, { status: 403, code: 'AccessDenied', message: 'current user api does not support synchronous calls' });
      }
      const injected = submitErrors.shift();
      if (injected) return sendError(res, injected);
      const id = `beta-task-${++counter}`;
      tasks.set(id, { id, body: (req.json ?? {}) as Record<string, unknown>, script: nextScript ?? fake.defaultScript, queries: 0 });
      nextScript = null;
      return sendJson(res, 200, { request_id: `req-${counter}`, output: { task_id: id, task_status: 'PENDING' } });
    }
    if (req.method === 'GET' && req.path.startsWith('/api/v1/tasks/')) {
      if (!authorized(req, res)) return;
      const injected = queryErrors.shift();
      if (injected) return sendError(res, injected);
      const id = decodeURIComponent(req.path.slice('/api/v1/tasks/'.length));
      const task = tasks.get(id);
      if (!task) return sendJson(res, 200, { request_id: `req-${++counter}`, output: { task_id: id, task_status: 'UNKNOWN' } });
      const step = task.script[Math.min(task.queries, task.script.length - 1)];
      task.queries++;
      return answerQuery(res, task, step, fake.url, `sig-${linkGeneration}`);
    }
    sendJson(res, 404, { code: 'NotFound', message: `no route ${req.method} ${req.path}` });
  });
  fake.url = server.url;
  fake.requests = server.requests;
  return fake;
}

function answerQuery(res: ServerResponse, task: FakeBetaTask, step: BetaStep, baseUrl: string, signature: string): void {
  if (typeof step === 'object' && 'http' in step && step.raw !== undefined) {
    res.writeHead(step.http, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(step.raw) });
    return void res.end(step.raw);
  }
  if (typeof step === 'object' && 'http' in step)
    return sendJson(res, step.http, step.body ?? { code: 'InternalError', message: 'injected' });
  const input = (task.body.input ?? {}) as { prompt?: string };
  const parameters = (task.body.parameters ?? {}) as { duration?: number; resolution?: string; ratio?: string };
  const status = typeof step === 'string' ? step : step.status;
  const output: Record<string, unknown> = { task_id: task.id, task_status: status, submit_time: '2026-01-01 12:00:00.123' };
  if (status !== 'PENDING') output.scheduled_time = '2026-01-01 12:00:01.456';
  if (typeof step === 'object') {
    Object.assign(output, { end_time: '2026-01-01 12:01:00.000' });
    if (step.code) output.code = step.code;
    if (step.message) output.message = step.message;
    return sendJson(res, 200, { request_id: `req-q-${task.id}-${task.queries}`, output });
  }
  if (status !== 'SUCCEEDED') return sendJson(res, 200, { request_id: `req-q-${task.id}-${task.queries}`, output });
  Object.assign(output, {
    end_time: '2026-01-01 12:02:00.789',
    orig_prompt: input.prompt ?? '',
    video_url: `${baseUrl}/videos/${task.id}.mp4?Expires=1767355200&OSSAccessKeyId=fake&Signature=${signature}`,
  });
  const duration = parameters.duration ?? 5;
  // Written by hand so the numbers really are floats on the wire.
  const usage = `{"duration":${duration}.0,"input_video_duration":0.0,"output_video_duration":${duration}.0,"video_count":1.0,"SR":${parameters.resolution === '720P' ? 720 : 1080}.0,"ratio":"${parameters.ratio ?? '16:9'}"}`;
  const text = `{"request_id":"req-q-${task.id}-${task.queries}","output":${JSON.stringify(output)},"usage":${usage}}`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function serveBytes(req: RecordedRequest, res: ServerResponse, bytes: Buffer | undefined): void {
  if (!bytes) return sendJson(res, 404, { code: 'NoSuchKey', message: 'The specified key does not exist.' });
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const head = req.method === 'HEAD';
  if (!range) {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, 'accept-ranges': 'bytes' });
    return void res.end(head ? undefined : bytes);
  }
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : bytes.length - 1, bytes.length - 1);
  if (start >= bytes.length) {
    res.writeHead(416, { 'content-range': `bytes */${bytes.length}` });
    return void res.end();
  }
  const slice = bytes.subarray(start, end + 1);
  res.writeHead(206, {
    'content-type': 'application/octet-stream',
    'content-length': slice.length,
    'content-range': `bytes ${start}-${end}/${bytes.length}`,
    'accept-ranges': 'bytes',
  });
  res.end(head ? undefined : slice);
}

export const BETA_MODEL_IDS = ['beta-1.0-t2v', 'beta-1.0-i2v', 'beta-1.0-r2v', 'beta-1.0-video-edit'];

/** The admin API body of a channel pointing at the fake. */
export const betaChannelBody = (fake: FakeBetaUpstream, extra: Record<string, unknown> = {}) => ({
  name: `beta-${fake.url}`,
  platform: 'beta',
  base_url: fake.url,
  api_key: fake.apiKey,
  models: BETA_MODEL_IDS,
  ...extra,
});

/** supertest parser keeping a response body as raw bytes (videos). */
export function binaryBody(res: import('superagent').Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}
