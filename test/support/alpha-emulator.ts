/**
 * Family A's emulator (src/families/alpha/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its images and videos in memory, with the test key `fake-alpha-key`:
 *
 *   const alpha = await startAlphaEmulator();             // or { apiKey: 'other-key' }
 *   await gw.createChannel(alphaChannelBody(alpha));      // every alpha/* model; extra fields override
 *
 * It speaks the protocol of docs/upstream-protocols.md as the provider does (every call but the video
 * URL needs `API-KEY`, a wrong one is HTTP 401 with the lower-case envelope; a repeated `Ai-trace-id`
 * answers the earlier video; image-to-video needs an `img_id` it handed out, else ErrCode 400032; the
 * provider's parameter checks). By default a video answers status 5, then 1, one per result query.
 *
 * Scripting what polls see (a script is the status of each successive result query; the last repeats):
 *   alpha.defaultScript = [5, 5, 1]        for videos created from now on (default: [5, 1])
 *   alpha.scriptNext([5, 8])               the next created video only (a FIFO queue, one entry per video)
 *   await alpha.setScript(videoId, [7])    one existing video, from its next poll on (its poll count restarts)
 *   finishAfter(n, status = 1)             helper: n polls of 5, then `status`
 *
 * Faults, switchable at runtime (`op`: 'upload' | 'generate' | 'result' | 'file' | 'any' (all but 'file')),
 * answered instead of the emulator (the first queued one that matches; `times` defaults to until cleared):
 *   alpha.inject('generate', { errCode: 500044 }, 1)         ErrCode envelope (HTTP 200) on the next call only
 *   alpha.inject('generate', { errCode: 500090, httpStatus: 500, lowerCase: true })  until cleared
 *   alpha.inject('generate', { http: 429, retryAfter: 7 })   a bare HTTP error (plain-text body)
 *   alpha.inject('result', { hang: true })                   never answers (the caller must time out)
 *   alpha.inject('result', { delayMs: 2000 })                the emulator's answer, 2 s late
 *   alpha.inject('generate', { until: released })           the emulator's answer once the test settles `released`
 *   alpha.inject('any', { garbage: true })                   HTTP 200 with an unparseable body
 *   alpha.inject('file', { stallAfter: 1024 })               a video download that stops after 1 KiB
 *   alpha.inject('result', { raw: bigBuffer })               HTTP 200 (or `httpStatus`) with exactly these bytes as a JSON body
 *   alpha.clearFaults()
 *
 * Inspecting: `requests` (every request, faulted ones too), `calls(op)` (one kind), `videos` (id ->
 * the accepted create: kind, body, trace id, script), `uploads` (file bytes or image_url of every
 * accepted upload), `submitsByTraceId` (how often each trace id reached the emulator).
 * Video bytes: `videoBytes` (replaceable); `videoUrlFor` (when set, the `url` a succeeded query hands
 * out instead of the emulator's own); `expireUrls()` makes every URL handed out so far answer 403, and
 * the next result query hands out a fresh one; `storeImage()` an img_id the provider knows without an
 * upload. `reset()` forgets everything but the default script and bytes; `close()` stops the server
 * (hanging calls included).
 */
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { memoryRecords, type VideoSource } from '../../src/families/simulator-shared/emulator-http';
import {
  AlphaCreate,
  AlphaEmulator,
  AlphaErrorAnswer,
  AlphaOp,
  alphaErrorReply,
  alphaOpOf,
  AlphaUploadForm,
} from '../../src/families/alpha/emulator/alpha-emulator';
import { writeEmulatorReply } from './emulator-server';
import { RecordedRequest, startLoopbackServer } from './http-server';

export type AlphaFault =
  | AlphaErrorAnswer
  | { http: number; retryAfter?: number }
  | { hang: true }
  /** The emulator's answer, but only after `delayMs` (a slow provider). */
  | { delayMs: number }
  /** The emulator's answer once `until` settles (a provider the test holds for as long as it needs). */
  | { until: Promise<unknown> }
  | { garbage: true }
  /** `file` only: sends the headers and the first `stallAfter` bytes, then never the rest. */
  | { stallAfter: number }
  /** These bytes as the JSON body, as they are (HTTP 200 unless `httpStatus`). */
  | { raw: Buffer | string; httpStatus?: number };

export interface AlphaUpload {
  imgId: number;
  traceId: string | undefined;
  bytes?: Buffer;
  filename?: string;
  contentType?: string;
  imageUrl?: string;
}

export interface AlphaEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the server received, in order (faulted ones too). */
  requests: RecordedRequest[];
  /** The videos the emulator created, by id. */
  readonly videos: ReadonlyMap<number, AlphaCreate>;
  /** Every accepted upload, in order. */
  readonly uploads: AlphaUpload[];
  /** How often each trace id was submitted (submits a fault answered not counted). */
  readonly submitsByTraceId: ReadonlyMap<string, number>;
  defaultScript: number[];
  videoBytes: Buffer;
  /** Serves every video from now on from this source (one made to order, or a different clip per fetch); `videoBytes` sets it back. */
  videoSource: VideoSource;
  /** When set, the `url` of a succeeded video (e.g. a `file://` or link-local URL); null: the emulator's own URL. */
  videoUrlFor: ((videoId: number) => string) | null;
  calls(op: AlphaOp): RecordedRequest[];
  scriptNext(script: number[]): void;
  setScript(videoId: number | string, script: number[]): Promise<void>;
  storeImage(): Promise<number>;
  inject(op: AlphaOp | 'any', fault: AlphaFault, times?: number): void;
  clearFaults(): void;
  expireUrls(): void;
  reset(): void;
  close(): Promise<void>;
}

export const ALPHA_MODEL_IDS = ['alpha/c1', 'alpha/v6', 'alpha/v5.6', 'alpha/v5.5', 'alpha/v5', 'alpha/v4.5', 'alpha/v4', 'alpha/v3.5'];

/** The admin API body of a channel pointing at this emulator, serving every family A model. */
export const alphaChannelBody = (alpha: { url: string; apiKey: string }, extra: Record<string, unknown> = {}) => ({
  name: `alpha-${alpha.url}`,
  platform: 'alpha',
  base_url: alpha.url,
  api_key: alpha.apiKey,
  models: ALPHA_MODEL_IDS,
  ...extra,
});

export const finishAfter = (polls: number, status = 1): number[] => [...Array<number>(polls).fill(5), status];

export async function startAlphaEmulator(options: { apiKey?: string } = {}): Promise<AlphaEmulatorServer> {
  const apiKey = options.apiKey ?? 'fake-alpha-key';
  const faults: Array<{ op: AlphaOp | 'any'; fault: AlphaFault; remaining: number }> = [];
  const emulatorWith = (defaultScript: number[], videoBytes: Buffer) =>
    new AlphaEmulator({
      apiKey,
      records: memoryRecords(() => Date.now()),
      now: () => Date.now(),
      video: { bytes: videoBytes },
      defaultScript,
    });
  let emulator = emulatorWith([5, 1], opaqueVideoBytes(300 * 1024));
  let uploads: AlphaUpload[] = [];
  let submitsByTraceId = new Map<string, number>();

  const server = await startLoopbackServer(async (req, res) => {
    const op = alphaOpOf(req.path);
    const fault = op ? takeFault(faults, op) : undefined;
    if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    else if (fault && 'until' in fault) await fault.until.catch(() => undefined);
    else if (fault) return sendFault(res, fault, emulator);
    await answer(req, res, op);
  });

  /** The emulator's answer to a request no fault took. */
  const answer = async (req: RecordedRequest, res: ServerResponse, op: AlphaOp | undefined): Promise<void> => {
    const traceId = header(req, 'ai-trace-id');
    if (op === 'generate' && traceId) submitsByTraceId.set(traceId, (submitsByTraceId.get(traceId) ?? 0) + 1);
    const form = op === 'upload' ? uploadForm(req) : undefined;
    const request = { method: req.method, path: req.path, query: req.query, headers: req.headers, json: req.json, upload: form };
    const reply = await emulator.handle(request, server.url);
    const resp = 'json' in reply ? (reply.json as { ErrCode?: number; Resp?: Record<string, unknown> } | undefined) : undefined;
    if (op === 'upload' && resp?.ErrCode === 0)
      uploads.push({
        imgId: Number(resp.Resp!.img_id),
        traceId,
        bytes: form?.file?.data,
        filename: form?.file?.filename,
        contentType: form?.file?.contentType,
        imageUrl: form?.imageUrl,
      });
    if (op === 'result' && resp?.ErrCode === 0 && resp.Resp?.url && alpha.videoUrlFor)
      resp.Resp.url = alpha.videoUrlFor(Number(resp.Resp.id));
    writeEmulatorReply(res, reply, header(req, 'range'));
  };

  const alpha: AlphaEmulatorServer = {
    url: server.url,
    apiKey,
    requests: server.requests,
    get videos() {
      return new Map(emulator.creates.map((create) => [create.id, create]));
    },
    get uploads() {
      return uploads;
    },
    get submitsByTraceId() {
      return submitsByTraceId;
    },
    get defaultScript() {
      return emulator.defaultScript ?? [];
    },
    set defaultScript(script: number[]) {
      emulator.defaultScript = script;
    },
    get videoBytes() {
      return videoBytesOf(emulator);
    },
    set videoBytes(bytes: Buffer) {
      emulator.video = { bytes };
    },
    get videoSource() {
      return emulator.video;
    },
    set videoSource(source: VideoSource) {
      emulator.video = source;
    },
    videoUrlFor: null,
    calls: (op) => server.requests.filter((req) => alphaOpOf(req.path) === op),
    scriptNext: (script) => emulator.scriptNext(script),
    setScript: (videoId, script) => emulator.setScript(Number(videoId), script),
    storeImage: () => emulator.storeImage(),
    inject: (op, fault, times = Infinity) => void faults.push({ op, fault, remaining: times }),
    clearFaults: () => void faults.splice(0),
    expireUrls: () => emulator.expireUrls(),
    reset() {
      faults.splice(0);
      server.requests.splice(0);
      emulator = emulatorWith(alpha.defaultScript, alpha.videoBytes);
      uploads = [];
      submitsByTraceId = new Map();
    },
    close: () => server.close(),
  };
  return alpha;
}

function videoBytesOf(emulator: AlphaEmulator): Buffer {
  if (!('bytes' in emulator.video)) throw new Error('the test emulator serves bytes');
  return emulator.video.bytes;
}

function header(req: RecordedRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function takeFault(faults: Array<{ op: AlphaOp | 'any'; fault: AlphaFault; remaining: number }>, op: AlphaOp): AlphaFault | undefined {
  const index = faults.findIndex((entry) => entry.op === op || (entry.op === 'any' && op !== 'file'));
  if (index < 0) return undefined;
  const entry = faults[index];
  if (--entry.remaining <= 0) faults.splice(index, 1);
  return entry.fault;
}

/** A fault's answer instead of the emulator's: the provider's error envelope through the emulator, or what a broken network or proxy does. */
function sendFault(res: ServerResponse, fault: AlphaFault, emulator: AlphaEmulator): void {
  if ('errCode' in fault) return writeEmulatorReply(res, alphaErrorReply(fault), undefined);
  if ('hang' in fault) return; // the connection stays open until the caller gives up or the server closes
  if ('stallAfter' in fault) {
    const bytes = videoBytesOf(emulator);
    return void res
      .writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length })
      .write(bytes.subarray(0, fault.stallAfter));
  }
  if ('raw' in fault)
    return void res
      .writeHead(fault.httpStatus ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(fault.raw) })
      .end(fault.raw);
  if ('garbage' in fault) return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>upstream proxy error');
  if ('http' in fault) {
    const retryAfter = fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
    return void res.writeHead(fault.http, { ...retryAfter, 'content-type': 'text/plain' }).end(`HTTP ${fault.http}`);
  }
}

/** Just enough multipart/form-data parsing to see what the gateway uploaded: the `image` file part and the `image_url` field. */
function uploadForm(req: RecordedRequest): AlphaUploadForm {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(header(req, 'content-type') ?? '');
  if (!boundary) return {};
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const form: AlphaUploadForm = {};
  let position = req.body.indexOf(delimiter);
  while (position >= 0) {
    const start = position + delimiter.length;
    const next = req.body.indexOf(delimiter, start);
    if (next < 0) break;
    const chunk = req.body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next one
    const split = chunk.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = chunk.subarray(0, split).toString('utf8');
      const name = /[;\s]name="([^"]*)"/.exec(head)?.[1];
      const filename = /filename="([^"]*)"/.exec(head)?.[1];
      const data = chunk.subarray(split + 4);
      if (name === 'image' && filename !== undefined && !form.file)
        form.file = { data, filename, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] };
      if (name === 'image_url' && form.imageUrl === undefined) form.imageUrl = data.toString('utf8');
    }
    position = next;
  }
  return form;
}

/**
 * An MP4 `ftyp` box, then random bytes: the archive keeps it (its first box is a video's), and no
 * reader finds a video in it (so its task is charged as asked). Never text, which the gateway refuses.
 */
function opaqueVideoBytes(size: number): Buffer {
  const bytes = randomBytes(size);
  Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1').copy(bytes);
  return bytes;
}

/** Bytes that pass as a PNG (the signature, then filler): what a client would send as its image. */
export function fakePng(size = 2048): Buffer {
  const bytes = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

export { binaryBody } from './binary-body';
