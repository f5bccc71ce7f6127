/**
 * A scriptable fake of the family A provider: a REAL HTTP server on loopback (built on
 * startLoopbackServer) that speaks the protocol of upstream-protocols.md, for e2e tests and load
 * runs with many concurrent tasks.
 *
 *   const fake = await startFakeAlphaUpstream();            // or { apiKey: 'other-key' }
 *   await gw.createChannel(alphaChannelBody(fake));          // every alpha/* model; extra fields override
 *
 * Protocol served (every call but `files` needs `API-KEY`; a wrong one gets HTTP 401 and the
 * lower-case envelope):
 *   POST /openapi/v2/image/upload         multipart `image` file or `image_url` -> {img_id, img_url}
 *   POST /openapi/v2/video/text/generate  JSON -> {video_id}; a repeated `Ai-trace-id` returns the earlier video
 *   POST /openapi/v2/video/img/generate   same, needs an `img_id` this fake handed out (else ErrCode 400032)
 *   GET  /openapi/v2/video/result/:id     {id, status, url?, outputWidth?, outputHeight?, ...}
 *   GET|HEAD /files/:id.mp4?v=N           the video bytes, with Range (206/416); 403 once expired
 *
 * Scripting what polls see (a script is the status of each successive result query; the last repeats):
 *   fake.defaultScript = [5, 5, 1]        for videos created from now on (default: [5, 1])
 *   fake.scriptNext([5, 8])               the next created video only (a FIFO queue, one entry per video)
 *   fake.setScript(videoId, [7])          one existing video, from its next poll on (its poll count restarts)
 *   finishAfter(n, status = 1)            helper: n polls of 5, then `status`
 *
 * Faults, switchable at runtime (`op`: 'upload' | 'generate' | 'result' | 'file' | 'any'):
 *   fake.inject('generate', { errCode: 500044 }, 1)         ErrCode envelope (HTTP 200) on the next call only
 *   fake.inject('generate', { errCode: 500090, httpStatus: 500, lowerCase: true })  until cleared
 *   fake.inject('generate', { http: 429, retryAfter: 7 })   a bare HTTP error (plain-text body)
 *   fake.inject('result', { hang: true })                   never answers (the caller must time out)
 *   fake.inject('result', { delayMs: 2000 })                answers normally, 2 s late
 *   fake.inject('generate', { until: released })           answers normally once the test settles `released`
 *   fake.inject('any', { garbage: true })                   HTTP 200 with an unparseable body
 *   fake.inject('file', { stallAfter: 1024 })               a video download that stops after 1 KiB
 *   fake.inject('result', { raw: bigBuffer })               HTTP 200 (or `httpStatus`) with exactly these bytes as a JSON body
 *   fake.clearFaults()
 *
 * Inspecting: `fake.requests` (every request, see RecordedRequest), `fake.calls(op)` (one kind),
 * `fake.videos` (Map id -> FakeVideo with body, traceId, polls), `fake.uploads` (file bytes or
 * image_url received), `fake.submitsByTraceId` (how often each trace id was submitted).
 * Video bytes: `fake.videoBytes` (replaceable), `fake.outputSize`, `fake.videoUrlFor` (when set, the
 * `url` a succeeded query hands out instead of the fake's own file link), `fake.expireUrls()` makes every
 * URL handed out so far answer 403, and the next result query hands out a fresh one.
 * `fake.reset()` forgets everything; `fake.close()` stops the server (hanging calls included).
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type FakeAlphaOp = 'upload' | 'generate' | 'result' | 'file';

export type FakeAlphaFault =
  | { http: number; retryAfter?: number }
  | { hang: true }
  /** Answers normally, but only after `delayMs` (a slow provider). */
  | { delayMs: number }
  /** Answers normally once `until` settles (a provider the test holds for as long as it needs). */
  | { until: Promise<unknown> }
  | { garbage: true }
  /** `file` only: sends the headers and the first `stallAfter` bytes, then never the rest. */
  | { stallAfter: number }
  /** These bytes as the JSON body, as they are (HTTP 200 unless `httpStatus`). */
  | { raw: Buffer | string; httpStatus?: number }
  | { errCode: number; message?: string; httpStatus?: number; lowerCase?: boolean; retryAfter?: number };

export interface FakeVideo {
  id: number;
  kind: 'text' | 'img';
  body: Record<string, unknown>;
  traceId: string | undefined;
  script: number[];
  polls: number;
  /** Bumped by expireUrls(); only URLs of the current version are served. */
  urlVersion: number;
}

export interface FakeUpload {
  imgId: number;
  traceId: string | undefined;
  bytes?: Buffer;
  filename?: string;
  contentType?: string;
  imageUrl?: string;
}

export interface FakeAlphaUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  videos: Map<number, FakeVideo>;
  uploads: FakeUpload[];
  submitsByTraceId: Map<string, number>;
  defaultScript: number[];
  videoBytes: Buffer;
  outputSize: { width: number; height: number };
  /** When set, the `url` of a succeeded video (e.g. a `file://` or link-local URL); null: the fake's own file link. */
  videoUrlFor: ((videoId: number) => string) | null;
  calls(op: FakeAlphaOp): RecordedRequest[];
  scriptNext(script: number[]): void;
  setScript(videoId: number | string, script: number[]): void;
  inject(op: FakeAlphaOp | 'any', fault: FakeAlphaFault, times?: number): void;
  clearFaults(): void;
  expireUrls(): void;
  reset(): void;
  close(): Promise<void>;
}

export const ALPHA_MODEL_IDS = ['alpha/c1', 'alpha/v6', 'alpha/v5.6', 'alpha/v5.5', 'alpha/v5', 'alpha/v4.5', 'alpha/v4', 'alpha/v3.5'];

/** The admin API body of a channel pointing at this fake, serving every family A model. */
export const alphaChannelBody = (fake: FakeAlphaUpstream, extra: Record<string, unknown> = {}) => ({
  name: `alpha-${fake.url}`,
  platform: 'alpha',
  base_url: fake.url,
  api_key: fake.apiKey,
  models: ALPHA_MODEL_IDS,
  ...extra,
});

export const finishAfter = (polls: number, status = 1): number[] => [...Array<number>(polls).fill(5), status];

const OP_BY_ROUTE: Array<[RegExp, FakeAlphaOp]> = [
  [/^\/openapi\/v2\/image\/upload$/, 'upload'],
  [/^\/openapi\/v2\/video\/(text|img)\/generate$/, 'generate'],
  [/^\/openapi\/v2\/video\/result\/[^/]+$/, 'result'],
  [/^\/files\/\d+\.mp4$/, 'file'],
];

export async function startFakeAlphaUpstream(options: { apiKey?: string } = {}): Promise<FakeAlphaUpstream> {
  const faults: Array<{ op: FakeAlphaOp | 'any'; fault: FakeAlphaFault; remaining: number }> = [];
  const scriptQueue: number[][] = [];
  const byTraceId = new Map<string, number>();
  let nextImgId = 5000;
  let nextVideoId = 70000;
  let server: LoopbackServer;

  const fake: FakeAlphaUpstream = {
    url: '',
    apiKey: options.apiKey ?? 'fake-alpha-key',
    requests: [],
    videos: new Map(),
    uploads: [],
    submitsByTraceId: new Map(),
    defaultScript: [5, 1],
    videoBytes: opaqueVideoBytes(300 * 1024),
    outputSize: { width: 1280, height: 720 },
    videoUrlFor: null,
    calls: (op) => fake.requests.filter((req) => opFor(req.path) === op),
    scriptNext: (script) => void scriptQueue.push(script),
    setScript(videoId, script) {
      const video = fake.videos.get(Number(videoId));
      if (!video) throw new Error(`fake alpha: no video ${videoId}`);
      Object.assign(video, { script, polls: 0 });
    },
    inject: (op, fault, times = Infinity) => void faults.push({ op, fault, remaining: times }),
    clearFaults: () => void faults.splice(0),
    expireUrls: () => fake.videos.forEach((video) => video.urlVersion++),
    reset() {
      faults.splice(0);
      scriptQueue.splice(0);
      byTraceId.clear();
      fake.requests.splice(0);
      fake.videos.clear();
      fake.uploads.splice(0);
      fake.submitsByTraceId.clear();
    },
    close: () => server.close(),
  };

  const handle = (req: RecordedRequest, res: ServerResponse): void => {
    const op = opFor(req.path);
    if (!op) return sendJson(res, 404, { err_code: 404, err_msg: 'no such route', resp: '' });
    const fault = takeFault(faults, op);
    if (fault && 'stallAfter' in fault)
      return void res
        .writeHead(200, { 'content-type': 'video/mp4', 'content-length': fake.videoBytes.length })
        .write(fake.videoBytes.subarray(0, fault.stallAfter));
    if (fault && 'delayMs' in fault) return void setTimeout(() => respond(req, res, op), fault.delayMs);
    if (fault && 'until' in fault) return void fault.until.finally(() => respond(req, res, op));
    if (fault) return sendFault(res, fault);
    respond(req, res, op);
  };

  /** The protocol itself, once any fault has been applied. */
  const respond = (req: RecordedRequest, res: ServerResponse, op: FakeAlphaOp): void => {
    if (op === 'file') return serveFile(fake, req, res);
    if (req.headers['api-key'] !== fake.apiKey) return sendJson(res, 401, { err_code: 401, err_msg: 'invalid API-KEY', resp: '' });
    const traceId = header(req, 'ai-trace-id');
    if (op === 'upload') {
      const parts = parseMultipart(req);
      const file = parts.find((part) => part.name === 'image' && part.filename !== undefined);
      const imageUrl = parts.find((part) => part.name === 'image_url')?.data.toString('utf8');
      if (!file && !imageUrl) return envelope(res, 400011, 'image or image_url is required');
      const imgId = nextImgId++;
      fake.uploads.push({ imgId, traceId, bytes: file?.data, filename: file?.filename, contentType: file?.contentType, imageUrl });
      return envelope(res, 0, 'success', { img_id: imgId, img_url: `${fake.url}/images/${imgId}.png` });
    }
    if (op === 'generate') {
      const kind = req.path.includes('/img/') ? 'img' : 'text';
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (traceId) fake.submitsByTraceId.set(traceId, (fake.submitsByTraceId.get(traceId) ?? 0) + 1);
      const earlier = traceId ? byTraceId.get(traceId) : undefined;
      if (earlier !== undefined) return envelope(res, 0, 'success', { video_id: earlier });
      if (kind === 'img' && !fake.uploads.some((upload) => upload.imgId === Number(body.img_id)))
        return envelope(res, 400032, 'invalid image id');
      const id = nextVideoId++;
      fake.videos.set(id, { id, kind, body, traceId, script: scriptQueue.shift() ?? [...fake.defaultScript], polls: 0, urlVersion: 1 });
      if (traceId) byTraceId.set(traceId, id);
      return envelope(res, 0, 'success', { video_id: id });
    }
    const id = Number(req.path.split('/').pop());
    const video = fake.videos.get(id);
    if (!video) return envelope(res, 400017, 'video not found');
    const status = video.script[Math.min(video.polls, video.script.length - 1)];
    video.polls++;
    return envelope(res, 0, 'success', {
      id,
      status,
      prompt: video.body.prompt ?? '',
      seed: video.body.seed ?? 0,
      ...(status === 1
        ? {
            url: fake.videoUrlFor?.(id) ?? `${fake.url}/files/${id}.mp4?v=${video.urlVersion}`,
            outputWidth: fake.outputSize.width,
            outputHeight: fake.outputSize.height,
          }
        : {}),
    });
  };

  server = await startLoopbackServer(async (req, res) => {
    fake.requests.push(req);
    handle(req, res);
  });
  fake.url = server.url;
  return fake;
}

function opFor(path: string): FakeAlphaOp | undefined {
  return OP_BY_ROUTE.find(([pattern]) => pattern.test(path))?.[1];
}

function header(req: RecordedRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function takeFault(
  faults: Array<{ op: FakeAlphaOp | 'any'; fault: FakeAlphaFault; remaining: number }>,
  op: FakeAlphaOp,
): FakeAlphaFault | undefined {
  const index = faults.findIndex((entry) => entry.op === op || (entry.op === 'any' && op !== 'file'));
  if (index < 0) return undefined;
  const entry = faults[index];
  if (--entry.remaining <= 0) faults.splice(index, 1);
  return entry.fault;
}

function sendFault(res: ServerResponse, fault: FakeAlphaFault): void {
  if ('delayMs' in fault || 'until' in fault) return; // handled before: the normal answer comes late
  if ('hang' in fault || 'stallAfter' in fault) return; // the connection stays open until the caller gives up or the fake closes
  if ('raw' in fault) {
    res.writeHead(fault.httpStatus ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(fault.raw) });
    res.end(fault.raw);
    return;
  }
  if ('garbage' in fault) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('<html>upstream proxy error');
    return;
  }
  const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
  if ('http' in fault) {
    res.writeHead(fault.http, { ...headers, 'content-type': 'text/plain' });
    res.end(`HTTP ${fault.http}`);
    return;
  }
  const message = fault.message ?? `simulated error ${fault.errCode}`;
  const body = fault.lowerCase
    ? { err_code: fault.errCode, err_msg: message, resp: '' }
    : { ErrCode: fault.errCode, ErrMsg: message, Resp: {} };
  const text = JSON.stringify(body);
  res.writeHead(fault.httpStatus ?? (fault.lowerCase ? 500 : 200), { ...headers, 'content-type': 'application/json' });
  res.end(text);
}

function envelope(res: ServerResponse, code: number, message: string, resp: unknown = {}): void {
  sendJson(res, 200, { ErrCode: code, ErrMsg: message, Resp: resp });
}

/** The video bytes, honouring Range like a CDN; URLs of an older version answer 403 (expired). */
function serveFile(fake: FakeAlphaUpstream, req: RecordedRequest, res: ServerResponse): void {
  const video = fake.videos.get(Number(/(\d+)\.mp4$/.exec(req.path)?.[1]));
  if (!video || Number(req.query.get('v')) !== video.urlVersion) {
    res.writeHead(403, { 'content-type': 'text/plain' });
    res.end('link expired');
    return;
  }
  const bytes = fake.videoBytes;
  const total = bytes.length;
  const range = /^bytes=(\d*)-(\d*)$/.exec(header(req, 'range') ?? '');
  let start = 0;
  let end = total - 1;
  if (range) {
    if (range[1] === '') start = Math.max(0, total - Number(range[2]));
    else {
      start = Number(range[1]);
      end = range[2] === '' ? total - 1 : Math.min(total - 1, Number(range[2]));
    }
    if (start >= total || start > end) {
      res.writeHead(416, { 'content-range': `bytes */${total}` });
      res.end();
      return;
    }
  }
  const headers: Record<string, string | number> = {
    'content-type': 'video/mp4',
    'accept-ranges': 'bytes',
    'content-length': end - start + 1,
  };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${total}`;
  res.writeHead(range ? 206 : 200, headers);
  res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
}

interface MultipartPart {
  name?: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** Just enough multipart/form-data parsing to see what the gateway uploaded. */
function parseMultipart(req: RecordedRequest): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(header(req, 'content-type') ?? '');
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let position = req.body.indexOf(delimiter);
  while (position >= 0) {
    const start = position + delimiter.length;
    const next = req.body.indexOf(delimiter, start);
    if (next < 0) break;
    const chunk = req.body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next one
    const split = chunk.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = chunk.subarray(0, split).toString('utf8');
      parts.push({
        name: /[;\s]name="([^"]*)"/.exec(head)?.[1],
        filename: /filename="([^"]*)"/.exec(head)?.[1],
        contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
        data: chunk.subarray(split + 4),
      });
    }
    position = next;
  }
  return parts;
}

/**
 * Random bytes that never start like text: the gateway refuses a "video" starting with `<`, `{` or `[`
 * (an error page), which random bytes did in about 1 run in 80. Not an MP4 box either, as before.
 */
function opaqueVideoBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes[0] = 0;
  bytes[4] = 0;
  return bytes;
}

/** Bytes that pass as a PNG (the signature, then filler): what a client would send as its image. */
export function fakePng(size = 2048): Buffer {
  const bytes = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

/** supertest parser that keeps a binary body as a Buffer: `.buffer(true).parse(binaryBody)`. */
export const binaryBody = ((res: NodeJS.ReadableStream, callback: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}) as unknown as (res: unknown, callback: (error: Error | null, body: unknown) => void) => void;
