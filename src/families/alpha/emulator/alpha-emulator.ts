import { randomUUID } from 'node:crypto';
import { ownValue } from '../../../common/runtime/own-value';
import { sniffImageType } from '../../../common/urls/image-type';
import { pixelSizeOf } from '../../pixel-size';
import {
  type AskedVideo,
  deliveredVideo,
  type EmulatorRecords,
  type EmulatorReply,
  type EmulatorRequest,
  type VideoSource,
} from '../../simulator-shared/emulator-http';
import { keepInLog } from '../../simulator-shared/emulator-log';
import type { SimulatorRecord } from '../../simulator-shared/simulator-records.service';
import { ALPHA_BUILTIN_SPECS } from '../alpha-builtin-models';
import { isAlphaQuality } from '../alpha-models';

/**
 * Prompt markers that steer the emulated provider (the console's browser tests use them):
 * - `[simulate:fail]`        the task ends with status 8 (generation failed; the gateway refunds)
 * - `[simulate:moderation]`  the task ends with status 7 (content moderation failed; refunded)
 * - `[simulate:reject]`      the submit is refused with ErrCode 400011 (client gets 400, no charge)
 * - `[simulate:busy]`        the submit is refused with ErrCode 500044 (client gets 429, no charge)
 */
export const SIMULATE_MARKERS = {
  fail: '[simulate:fail]',
  moderation: '[simulate:moderation]',
  reject: '[simulate:reject]',
  busy: '[simulate:busy]',
};

/** How long a clock-driven video reports status 5 before its final status. */
export const GENERATION_MS = 6_000;
/** How long a result URL stays valid, like the provider's temporary URLs. */
export const URL_VALIDITY_MS = 3_600_000;
/** The provider's limit on an uploaded image. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE = 'alpha.image';
const VIDEO = 'alpha.video';
/**
 * The versions the provider serves and their lengths: the builtin ones, and v7 (1 to 20 s), which an
 * operator adds as a catalog entry (`alpha/v7`).
 */
const SERVED_DURATIONS: Readonly<Record<string, readonly number[]>> = {
  ...Object.fromEntries(Object.entries(ALPHA_BUILTIN_SPECS).map(([version, spec]) => [version, spec.durations])),
  v7: Array.from({ length: 20 }, (_, index) => index + 1),
};
/** Short side of each quality, for the output size a real provider would report. */
const SHORT_SIDE: Record<string, number> = { '360p': 360, '540p': 540, '720p': 720, '1080p': 1080 };
/** A quality it does not know is reported as the simulator's default delivery (10 s, 1080p, sound) is made. */
const UNKNOWN_QUALITY_SIZE = '1920x1080';

/** What a route of the protocol is, for logs and for the faults a test injects. */
export type AlphaOp = 'upload' | 'generate' | 'result' | 'file';

const ROUTES: ReadonlyArray<[RegExp, AlphaOp, readonly string[]]> = [
  [/^\/openapi\/v2\/image\/upload$/, 'upload', ['POST']],
  [/^\/openapi\/v2\/video\/(text|img)\/generate$/, 'generate', ['POST']],
  [/^\/openapi\/v2\/video\/result\/([^/]+)$/, 'result', ['GET']],
  [/^\/files\/(\d{1,15})\.mp4$/, 'file', ['GET', 'HEAD']],
];

/** The route a path is on (any method), or undefined. */
export function alphaOpOf(path: string): AlphaOp | undefined {
  return ROUTES.find(([pattern]) => pattern.test(path))?.[1];
}

/** The multipart form of an image upload, as the mount parsed it. */
export interface AlphaUploadForm {
  file?: { data: Buffer; filename?: string; contentType?: string };
  imageUrl?: string;
}

/** A request to the emulator: an upload also carries its parsed form (never logged: it holds the image). */
export interface AlphaEmulatorRequest extends EmulatorRequest {
  upload?: AlphaUploadForm;
}

/** A provider error: the `{ErrCode, ErrMsg, Resp}` envelope (HTTP 200 unless `httpStatus`), or the lower-case one (HTTP 500 unless `httpStatus`). */
export interface AlphaErrorAnswer {
  errCode: number;
  message?: string;
  httpStatus?: number;
  lowerCase?: boolean;
  retryAfter?: number;
}

/** A create the emulator accepted: the video's id, its kind, body, trace id and the script it follows (tests). */
export interface AlphaCreate {
  id: number;
  kind: 'text' | 'img';
  body: Record<string, unknown>;
  traceId: string | undefined;
  script?: number[];
}

interface AlphaVideoData {
  prompt: string;
  seed?: number;
  /** What the clock-driven video ends with (prompt markers). */
  finalStatus: 1 | 7 | 8;
  /** What a real provider reports for the request (the clip served is always the same). */
  size: string | null;
  /** What the request asked of the video (absent on older records): the delivered one is made to it. */
  duration?: number;
  quality?: string;
  aspectRatio?: string;
  audio?: boolean;
  /** A test's script: the status of each result query in turn (the last repeats); absent, the status follows the clock. */
  script?: number[];
  polls?: number;
}

export interface AlphaEmulatorOptions {
  /** The one `API-KEY` it accepts. */
  apiKey: string;
  records: EmulatorRecords;
  now: () => number;
  /** The bytes behind a succeeded video's temporary URL. */
  video: VideoSource;
  /**
   * The script every new video follows (tests): its status on each result query in turn, the last
   * repeating; absent, videos follow the clock: 5 for GENERATION_MS, then 1 (or the prompt marker's).
   */
  defaultScript?: number[];
}

/**
 * The family A provider (docs/upstream-protocols.md, Family A), one emulator for the embedded
 * simulator and the tests: `API-KEY` on every API call (a wrong one is HTTP 401 with the lower-case
 * envelope), answers in the `{ErrCode, ErrMsg, Resp}` envelope, image upload (multipart `image` or
 * `image_url`), text- and image-to-video de-duplicated on `Ai-trace-id` (a repeated one answers the
 * earlier video), the provider's own parameter checks, result queries, and the video at a temporary
 * URL that needs no key (`/files/<id>.mp4?expires=&v=`; 403 once expired). Integer ids are the
 * records' sequence numbers, so never handed out twice. Prompt markers: SIMULATE_MARKERS. Tests also
 * script statuses (`defaultScript`, `scriptNext`, `setScript`) and expire the URLs handed out.
 */
export class AlphaEmulator {
  /** Every request (without an upload's form), oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly requests: EmulatorRequest[] = [];
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: AlphaCreate[] = [];
  /** The bytes served at the temporary URLs; a test may swap them. */
  video: VideoSource;
  defaultScript: number[] | undefined;
  private readonly nextScripts: number[][] = [];
  /** Part of every URL handed out; `expireUrls` moves it on, and older URLs answer 403. */
  private urlVersion = 1;

  constructor(private readonly options: AlphaEmulatorOptions) {
    this.video = options.video;
    this.defaultScript = options.defaultScript;
  }

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/alpha`), for the video URLs. */
  async handle(req: AlphaEmulatorRequest, base: string): Promise<EmulatorReply> {
    keepInLog(this.requests, { method: req.method, path: req.path, query: req.query, headers: req.headers, json: req.json });
    const route = ROUTES.find(([pattern, , methods]) => pattern.test(req.path) && methods.includes(req.method));
    if (!route) return { status: 404, json: { err_code: 404, err_msg: 'no such route', resp: '' } };
    const [pattern, op] = route;
    const param = pattern.exec(req.path)![1];
    if (op === 'file') return this.file(Number(param), req.query);
    if (header(req, 'api-key') !== this.options.apiKey)
      return { status: 401, json: { err_code: 401, err_msg: 'invalid API-KEY', resp: '' } };
    if (op === 'upload') return this.upload(req.upload ?? {});
    if (op === 'generate') return this.generate(param as 'text' | 'img', req);
    return this.result(param, base);
  }

  /** The next created video follows this script (a queue: one entry per video). */
  scriptNext(script: number[]): void {
    this.nextScripts.push(script);
  }

  /** An existing video follows this script from its next query on (its query count restarts). */
  async setScript(videoId: number, script: number[]): Promise<void> {
    const video = await this.options.records.findBySeq<AlphaVideoData>(VIDEO, videoId);
    if (!video) throw new Error(`alpha emulator: no video ${videoId}`);
    await this.options.records.update<AlphaVideoData>(VIDEO, video.key, { ...video.data, script, polls: 0 });
    const logged = this.creates.find((create) => create.id === videoId);
    if (logged) logged.script = script;
  }

  /** Every URL handed out so far answers 403 from now on; the next result query hands out a fresh one. */
  expireUrls(): void {
    this.urlVersion++;
  }

  /** An image the provider holds without this emulator having been asked (uploaded elsewhere): its `img_id`. */
  async storeImage(): Promise<number> {
    return (await this.options.records.insertOrGet(IMAGE, randomUUID(), {})).seq;
  }

  private async upload(form: AlphaUploadForm): Promise<EmulatorReply> {
    if (form.file) {
      if (form.file.data.length > MAX_IMAGE_BYTES) return envelope(500030, 'image too large');
      if (!sniffImageType(form.file.data)) return envelope(500031, 'image format not supported');
    } else if (typeof form.imageUrl !== 'string' || !/^https?:\/\//.test(form.imageUrl)) {
      return envelope(400011, 'image or image_url is required');
    }
    const id = await this.storeImage();
    return envelope(0, 'success', { img_id: id, img_url: `https://simulator.invalid/images/${id}` });
  }

  private async generate(kind: 'text' | 'img', req: AlphaEmulatorRequest): Promise<EmulatorReply> {
    const { records } = this.options;
    const traceId = header(req, 'ai-trace-id');
    const earlier = traceId ? await records.find(VIDEO, traceId) : null;
    if (earlier) return envelope(0, 'success', { video_id: earlier.seq });
    const body = isObject(req.json) ? req.json : {};
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (prompt.includes(SIMULATE_MARKERS.reject)) return envelope(400011, 'invalid parameter (simulated)');
    if (prompt.includes(SIMULATE_MARKERS.busy)) return envelope(500044, 'concurrent generation limit reached (simulated)');
    const refusal = await this.checkParameters(kind, body, prompt);
    if (refusal) return refusal;
    const finalStatus = prompt.includes(SIMULATE_MARKERS.moderation) ? 7 : prompt.includes(SIMULATE_MARKERS.fail) ? 8 : 1;
    // Image-to-video follows the image's shape; the sample image is landscape, so 16:9 stands for it.
    const size =
      pixelSizeOf(ownValue(SHORT_SIDE, String(body.quality)) ?? 0, kind === 'text' ? (body.aspect_ratio ?? '16:9') : '16:9') ?? null;
    const script = this.nextScripts.shift() ?? this.defaultScript;
    const data: AlphaVideoData = {
      prompt,
      ...(typeof body.seed === 'number' ? { seed: body.seed } : {}),
      finalStatus,
      size,
      duration: Number(body.duration),
      quality: body.quality as string,
      ...(kind === 'text' && typeof body.aspect_ratio === 'string' ? { aspectRatio: body.aspect_ratio } : {}),
      ...(typeof body.generate_audio_switch === 'boolean' ? { audio: body.generate_audio_switch } : {}),
      ...(script ? { script: [...script], polls: 0 } : {}),
    };
    const video = await records.insertOrGet<AlphaVideoData>(VIDEO, traceId || randomUUID(), data);
    if (!this.creates.some((create) => create.id === video.seq))
      keepInLog(this.creates, { id: video.seq, kind, body, traceId, ...(video.data.script ? { script: video.data.script } : {}) });
    return envelope(0, 'success', { video_id: video.seq });
  }

  /** The provider's own checks, so that a gateway bug shows up as a provider error. */
  private async checkParameters(kind: 'text' | 'img', body: Record<string, unknown>, prompt: string): Promise<EmulatorReply | null> {
    const durations = ownValue(SERVED_DURATIONS, String(body.model));
    if (!durations) return envelope(400013, `invalid model ${String(body.model)}`);
    if (kind === 'text' && !prompt.trim()) return envelope(400011, 'prompt is empty');
    if (prompt.length > 2048) return envelope(400018, 'prompt too long');
    if (!durations.includes(Number(body.duration))) return envelope(400013, 'invalid duration');
    if (typeof body.quality !== 'string' || !isAlphaQuality(body.quality)) return envelope(400013, 'invalid quality');
    if (kind === 'img' && !(await this.options.records.findBySeq(IMAGE, Number(body.img_id)))) return envelope(400032, 'invalid image id');
    return null;
  }

  /** Status 5 until the generation time has passed, then the final status (or a test's script, one status per query). */
  private async result(idText: string, base: string): Promise<EmulatorReply> {
    const id = Number(idText);
    const video = Number.isSafeInteger(id) ? await this.options.records.findBySeq<AlphaVideoData>(VIDEO, id) : null;
    if (!video) return envelope(400017, 'video not found');
    const now = this.options.now();
    const status = video.data.script ? await this.nextStatus(video) : this.statusByClock(video);
    const [width, height] = (video.data.size ?? UNKNOWN_QUALITY_SIZE).split('x').map(Number);
    return envelope(0, 'success', {
      id: video.seq,
      status,
      prompt: video.data.prompt,
      seed: video.data.seed ?? 0,
      create_time: new Date(video.createdAt).toISOString(),
      modify_time: new Date(now).toISOString(),
      ...(status === 1
        ? {
            url: `${base}/files/${video.seq}.mp4?expires=${now + URL_VALIDITY_MS}&v=${this.urlVersion}`,
            outputWidth: width,
            outputHeight: height,
          }
        : {}),
    });
  }

  private async nextStatus(video: SimulatorRecord<AlphaVideoData>): Promise<number> {
    const { script, polls = 0 } = video.data;
    await this.options.records.update<AlphaVideoData>(VIDEO, video.key, { ...video.data, polls: polls + 1 });
    return script![Math.min(polls, script!.length - 1)];
  }

  private statusByClock(video: SimulatorRecord<AlphaVideoData>): number {
    return this.options.now() - video.createdAt >= GENERATION_MS ? video.data.finalStatus : 5;
  }

  /** The temporary URL: no key (a signed link); 403 once expired or moved on, or for a video that never succeeds. */
  private async file(videoId: number, query: URLSearchParams): Promise<EmulatorReply> {
    const expires = Number(query.get('expires'));
    const fresh = Number.isFinite(expires) && expires >= this.options.now() && Number(query.get('v')) === this.urlVersion;
    const video = fresh ? await this.options.records.findBySeq<AlphaVideoData>(VIDEO, videoId) : null;
    // A scripted video's URL is handed out only with status 1; a clock-driven one may be guessed, so it is checked.
    if (!video || (!video.data.script && this.statusByClock(video) !== 1)) return { status: 403, text: 'link expired or unknown' };
    return { status: 200, video: await deliveredVideo(this.video, askedOf(video.data)) };
  }
}

/** The shape a video's request asked: its duration, quality, text-to-video ratio and audio switch (what it left unsaid, undefined). */
function askedOf(video: AlphaVideoData): AskedVideo {
  return { seconds: video.duration, resolution: video.quality, aspectRatio: video.aspectRatio, audio: video.audio };
}

/** A provider error in its envelope, as the provider answers it (also what a test injects). */
export function alphaErrorReply(answer: AlphaErrorAnswer): EmulatorReply {
  const message = answer.message ?? `simulated error ${answer.errCode}`;
  const headers = answer.retryAfter !== undefined ? { 'retry-after': String(answer.retryAfter) } : undefined;
  if (answer.lowerCase)
    return { status: answer.httpStatus ?? 500, headers, json: { err_code: answer.errCode, err_msg: message, resp: '' } };
  return { status: answer.httpStatus ?? 200, headers, json: { ErrCode: answer.errCode, ErrMsg: message, Resp: {} } };
}

function envelope(code: number, message: string, resp: unknown = {}): EmulatorReply {
  return { status: 200, json: { ErrCode: code, ErrMsg: message, Resp: resp } };
}

function header(req: EmulatorRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
