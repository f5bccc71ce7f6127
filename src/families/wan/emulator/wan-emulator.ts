import { randomUUID } from 'node:crypto';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog, type LoggedCreate } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf, textOrEmpty } from '../../simulator-shared/request-fields';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { stepNow, stepOfQuery } from '../../shared/emulator-steps';
import { askedFromSource, type FetchedSource, fetchSourceVideo } from '../../simulator-shared/source-video-fetch';
import { WAN_ASPECT_RATIOS, WAN_LEGACY_SIZES, type WanProtocol } from '../wan-models';
import { WAN_CREATE_PATH, type WanTaskAnswer } from '../wan-protocol';

/** A task's status in a script, one per query (the last repeats); `{ failed }` carries DashScope's `output.code`. */
export type WanStep = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'CANCELED' | 'UNKNOWN' | { failed: string };

export const SIMULATED_PENDING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'wan.task';
const URL_VALIDITY_S = 24 * 3600;
const MAX_SEED = 2147483647;
const IMAGE = /^(https?:\/\/\S+|data:image\/(png|jpe?g|webp|bmp);base64,[A-Za-z0-9+/]+={0,2})$/;
/** A source video is a URL DashScope fetches (mp4 or mov, 2 to 10 s). */
const VIDEO = /^https?:\/\/\S+$/;

/** What one model takes (the notes' model table): its wire, whether it needs a first frame, its lengths and resolutions. */
interface ServedModel {
  protocol: WanProtocol;
  image: boolean;
  seconds: (value: number) => boolean;
  resolutions: readonly string[];
  /** `media` types besides first_frame (wan2.7-i2v: last_frame). */
  moreMedia?: readonly string[];
  /** The source video it takes: wan2.7-i2v's `first_clip` (instead of a first frame), wan2.7-videoedit's `video`. */
  source?: 'first_clip' | 'video';
}
const FIVE_TEN_FIFTEEN = (value: number) => [5, 10, 15].includes(value);
const TWO_TO_FIFTEEN = (value: number) => value >= 2 && value <= 15;
const HD: readonly string[] = ['720P', '1080P'];
/**
 * The models DashScope serves here: the builtin ones, and `wan2.5-t2v-preview` (legacy, 5 or 10 s,
 * 480P to 1080P), which an operator adds as a catalog entry.
 */
const SERVED: Readonly<Record<string, ServedModel>> = {
  'wan2.6-t2v': { protocol: 'legacy', image: false, seconds: FIVE_TEN_FIFTEEN, resolutions: HD },
  'wan2.6-i2v': { protocol: 'legacy', image: true, seconds: FIVE_TEN_FIFTEEN, resolutions: HD },
  'wan2.7-t2v': { protocol: 'media', image: false, seconds: TWO_TO_FIFTEEN, resolutions: HD },
  'wan2.7-i2v': {
    protocol: 'media',
    image: true,
    seconds: TWO_TO_FIFTEEN,
    resolutions: HD,
    moreMedia: ['last_frame', 'driving_audio'],
    source: 'first_clip',
  },
  // `duration` 0 (the default) keeps the source's length; 2 to 10 cuts it from its start.
  'wan2.7-videoedit': {
    protocol: 'media',
    image: false,
    seconds: (value) => value === 0 || (value >= 2 && value <= 10),
    resolutions: HD,
    moreMedia: ['reference_image'],
    source: 'video',
  },
  'wan2.5-t2v-preview': { protocol: 'legacy', image: false, seconds: (value) => value === 5 || value === 10, resolutions: ['480P', ...HD] },
};

/** DashScope's words for its codes; those a test meets carry text the gateway must never pass on. */
const MESSAGES: Readonly<Record<string, string>> = {
  InvalidApiKey: 'Invalid API-key provided.',
  AccessDenied: 'current user api does not support synchronous calls',
  DataInspectionFailed: 'Input data may contain inappropriate content, see http://10.0.0.5/inspect (simulated)',
  Arrearage: 'Access denied, please make sure your account 42 is in good standing. (simulated)',
  'Throttling.RateQuota': 'Requests rate limit exceeded, please try again later. (simulated)',
  'InternalError.Algo': 'An internal error occurred at http://10.0.0.7/algo (simulated)',
  UnsupportedOperation: 'Failed to cancel the task, please confirm if the task is in PENDING status.',
};

interface EmulatedTask {
  model: string;
  protocol: WanProtocol;
  prompt: string;
  /** What the create asked of its video. */
  asked: AskedVideo;
  /** `usage` once it succeeded. */
  usage: Record<string, unknown>;
  /** How the task ends by the clock (prompt markers), or null for a video. */
  end: Exclude<WanStep, 'PENDING' | 'RUNNING' | 'SUCCEEDED'> | null;
  cancelled: boolean;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: WanStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: PENDING for 2 s, RUNNING until 6 s, then done. */
export interface WanEmulatorOptions extends ScriptedEmulatorOptions<WanStep> {
  /** The one key it accepts, as `Authorization: Bearer <key>` (a key of another region is refused the same way). */
  apiKey: string;
}

/** A submit failure a test queued: DashScope's error body with this `code`, answered instead of the next create. */
export interface WanScriptedFailure {
  status: number;
  code: string;
  headers?: Record<string, string>;
}

/** A create the emulator accepted: its body and request. */
export type WanCreate = LoggedCreate;

/**
 * DashScope's video synthesis (docs/upstream-protocols-wires.md, 2.10), one emulator for the
 * embedded simulator and the tests: `Authorization: Bearer <key>` on every API call (401
 * `InvalidApiKey` otherwise), `X-DashScope-Async: enable` on the create (403 `AccessDenied`
 * "current user api does not support synchronous calls" without it), the body checked against each
 * model's wire (`duration` an integer of its lengths, `resolution` upper case, the legacy text-to-video
 * `size`, `ratio` on the media text-to-video only, an image-to-video model without its image a 400
 * "must provide an image"), `UNKNOWN` (200) for a task it never had or forgot (24 h), times as
 * `YYYY-MM-DD HH:MM:SS.mmm`, `orig_prompt`/`actual_prompt` and `usage` on success, the video at an
 * OSS-like link with `Expires=` (no key), and cancel of a PENDING task (`UnsupportedOperation` after).
 * Prompt markers: `[simulate:reject]` 400 DataInspectionFailed and `[simulate:busy]` 429
 * Throttling.RateQuota and `[simulate:credits]` 400 Arrearage at the create; `[simulate:moderation]`
 * FAILED DataInspectionFailed, `[simulate:fail]` FAILED InternalError.Algo, `[simulate:expire]`
 * UNKNOWN. Tests also script statuses and queue submit errors; it logs requests, creates and cancels.
 */
export class WanEmulator extends ScriptedEmulator<WanStep, WanScriptedFailure, WanEmulatorOptions> {
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: WanCreate[] = [];
  /** Every cancel request, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly cancels: EmulatorRequest[] = [];
  /** Every source video (`first_clip`, `video`) a create fetched, oldest first. */
  readonly sourceFetches: FetchedSource[] = [];

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/wan`), for the video links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const video = fileLinkMatch(req, /^\/oss\/([\w-]{1,64})\.mp4$/);
    if (video) return this.finishedVideo<EmulatedTask>(TASK, video[1], (task, createdAt) => this.stepAt(task, createdAt) === 'SUCCEEDED');
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return fail(401, 'InvalidApiKey');
    if (req.path === WAN_CREATE_PATH && req.method === 'POST') return this.create(req);
    const task = /^\/api\/v1\/tasks\/([^/]{1,128})(\/cancel)?$/.exec(req.path);
    if (task && !task[2] && req.method === 'GET') return this.query(task[1], base);
    if (task && task[2] && req.method === 'POST') return this.cancel(task[1], req);
    return fail(404, 'InvalidURL');
  }

  private async create(req: EmulatorRequest): Promise<EmulatorReply> {
    if (String(req.headers['x-dashscope-async'] ?? '').toLowerCase() !== 'enable') return fail(403, 'AccessDenied');
    const failure = this.takeSubmitFailure();
    if (failure) return fail(failure.status, failure.code, failure.headers);
    const body = jsonFieldsOf(req);
    const checked = checkCreate(body);
    if (typeof checked === 'string') return fail(checked === 'ModelNotFound' ? 404 : 400, checked);
    const sourced = await this.fetchedSource(body, checked);
    if (typeof sourced === 'string') return fail(400, sourced);
    const prompt = textOrEmpty((body.input as Record<string, unknown>).prompt);
    if (prompt.includes('[simulate:reject]')) return fail(400, 'DataInspectionFailed');
    if (prompt.includes('[simulate:busy]')) return fail(429, 'Throttling.RateQuota', { 'Retry-After': '5' });
    if (prompt.includes('[simulate:credits]')) return fail(400, 'Arrearage');
    await this.forgetOld(TASK);
    const task: EmulatedTask = {
      ...sourced,
      prompt,
      end:
        markedEnd(prompt, { moderation: { failed: 'DataInspectionFailed' }, fail: { failed: 'InternalError.Algo' } }) ??
        (prompt.includes('[simulate:expire]') ? 'UNKNOWN' : null),
      cancelled: false,
      ...this.takeScript(),
    };
    const { key } = await this.options.records.insertOrGet(TASK, randomUUID(), task);
    keepInLog(this.creates, { body, request: req });
    return { status: 200, json: { request_id: randomUUID(), output: { task_id: key, task_status: 'PENDING' } } };
  }

  /**
   * The source video of an edit or extension, fetched as DashScope would (no key), and read: 2 to 10 s;
   * an edit's video is its source's length (or `duration`, a cut from its start: no longer than the
   * source). The checked task as it is when the create has no source.
   */
  private async fetchedSource(body: Record<string, unknown>, checked: Checked): Promise<Checked | string> {
    const media = ((body.input as { media?: unknown }).media ?? []) as Array<{ type?: unknown; url?: unknown }>;
    const item = Array.isArray(media) ? media.find((one) => one?.type === 'first_clip' || one?.type === 'video') : undefined;
    if (!item) return checked;
    const source = await fetchSourceVideo(String(item.url));
    if (!source) return 'InvalidFile.DownloadFailed';
    this.sourceFetches.push(source);
    if (source.seconds !== null && (source.seconds < 2 || source.seconds > 10)) return 'InvalidParameter';
    if (item.type === 'first_clip') return checked;
    const cut = Number((body.parameters as { duration?: unknown } | undefined)?.duration ?? 0);
    if (cut > 0 && source.seconds !== null && cut > source.seconds) return 'InvalidParameter';
    const seconds = cut > 0 ? cut : source.seconds;
    const asked = { ...checked.asked, ...askedFromSource(source, seconds) };
    if (seconds === null) delete asked.seconds;
    return {
      ...checked,
      asked,
      usage: { ...checked.usage, duration: seconds ?? 5, output_video_duration: seconds ?? 5, input_video_duration: source.seconds ?? 5 },
    };
  }

  /** The task as `GET /api/v1/tasks/{id}` shows it; a scripted one moves one step per query. */
  private async query(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return { status: 200, json: { request_id: randomUUID(), output: { task_id: id, task_status: 'UNKNOWN' } } };
    const task = record.data;
    const step = task.cancelled
      ? 'CANCELED'
      : await stepOfQuery(this.options.records, TASK, id, task, () => this.byClock(task, record.createdAt));
    const status = typeof step === 'string' ? step : 'FAILED';
    const output: NonNullable<WanTaskAnswer['output']> & Record<string, unknown> = {
      task_id: id,
      task_status: status,
      submit_time: dashScopeTime(record.createdAt),
    };
    if (status !== 'PENDING') output.scheduled_time = dashScopeTime(record.createdAt + SIMULATED_PENDING_MS);
    const answer: WanTaskAnswer = { request_id: randomUUID(), output };
    if (status === 'SUCCEEDED') {
      const expires = Math.floor(this.options.now() / 1000) + URL_VALIDITY_S;
      Object.assign(output, {
        end_time: dashScopeTime(record.createdAt + SIMULATED_DONE_MS),
        orig_prompt: task.prompt,
        actual_prompt: `${task.prompt} (extended)`,
        video_url: `${base}/oss/${id}.mp4?Expires=${expires}&OSSAccessKeyId=simulated&Signature=simulated`,
      });
      answer.usage = task.usage;
    } else if (typeof step !== 'string') {
      Object.assign(output, {
        end_time: dashScopeTime(this.options.now()),
        code: step.failed,
        message: MESSAGES[step.failed] ?? 'simulated',
      });
    }
    return { status: 200, json: answer };
  }

  /** DashScope stops a PENDING task; after that, a 400 UnsupportedOperation. */
  private async cancel(id: string, req: EmulatorRequest): Promise<EmulatorReply> {
    keepInLog(this.cancels, req);
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || record.data.cancelled || this.stepAt(record.data, record.createdAt) !== 'PENDING')
      return fail(400, 'UnsupportedOperation');
    await this.options.records.update(TASK, id, { ...record.data, cancelled: true });
    return { status: 200, json: { request_id: randomUUID() } };
  }

  private byClock(task: EmulatedTask, createdAt: number): WanStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_PENDING_MS) return 'PENDING';
    if (elapsed < SIMULATED_DONE_MS) return 'RUNNING';
    return task.end ?? 'SUCCEEDED';
  }

  /** Where the task is now, without counting a query: what a cancel and the video link decide on. */
  private stepAt(task: EmulatedTask, createdAt: number): WanStep {
    return task.cancelled ? 'CANCELED' : stepNow(task, () => this.byClock(task, createdAt));
  }
}

type Checked = Pick<EmulatedTask, 'model' | 'protocol' | 'asked' | 'usage'>;

/** A create's model and what it asked, or the `code` it is refused with. */
function checkCreate(body: Record<string, unknown>): Checked | string {
  const model = typeof body.model === 'string' ? SERVED[body.model] : undefined;
  if (!model) return 'ModelNotFound';
  const input = (body.input ?? {}) as Record<string, unknown>;
  const parameters = (body.parameters ?? {}) as Record<string, unknown>;
  if (typeof input !== 'object' || typeof parameters !== 'object') return 'InvalidParameter';
  if (!model.image && !model.source && (typeof input.prompt !== 'string' || input.prompt.trim() === '')) return 'InvalidParameter';
  if (checkFrames(model, input) !== null) return 'InvalidParameter';
  const duration = parameters.duration ?? (model.source === 'video' ? 0 : 5);
  if (typeof duration !== 'number' || !Number.isInteger(duration) || !model.seconds(duration)) return 'InvalidParameter';
  const legacyText = model.protocol === 'legacy' && !model.image;
  const resolution = legacyText ? resolutionOfSize(parameters.size, model) : parameters.resolution;
  if (typeof resolution !== 'string' || !model.resolutions.includes(resolution)) return 'InvalidParameter';
  if (legacyText && parameters.resolution !== undefined) return 'InvalidParameter';
  const ratio = parameters.ratio;
  if (ratio !== undefined && (model.protocol !== 'media' || model.image || !WAN_ASPECT_RATIOS.includes(String(ratio))))
    return 'InvalidParameter';
  if (parameters.audio !== undefined && (model.protocol !== 'legacy' || typeof parameters.audio !== 'boolean')) return 'InvalidParameter';
  const audioSetting = parameters.audio_setting;
  if (audioSetting !== undefined && (model.source !== 'video' || !['auto', 'origin'].includes(String(audioSetting))))
    return 'InvalidParameter';
  const seed = parameters.seed;
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED)) return 'InvalidParameter';
  const size = legacyText ? String(parameters.size) : undefined;
  const shortSide = Number.parseInt(resolution, 10);
  return {
    model: body.model as string,
    protocol: model.protocol,
    asked: {
      seconds: duration,
      resolution: resolution.toLowerCase(),
      ...(size ? { size: size.replace('*', 'x') } : {}),
      ...(typeof ratio === 'string' ? { aspectRatio: ratio } : {}),
      // wan2.7 always makes audio; the legacy models unless `audio: false`.
      audio: model.protocol === 'media' || parameters.audio !== false,
    },
    usage:
      model.protocol === 'legacy'
        ? { duration, video_count: 1, SR: shortSide, ...(size ? { size } : {}) }
        : { duration, output_video_duration: duration, video_count: 1, SR: shortSide, ...(typeof ratio === 'string' ? { ratio } : {}) },
  };
}

/** Null when the model's frames are there as its wire says (legacy `img_url`; media `first_frame` and its other types), else why not. */
function checkFrames(model: ServedModel, input: Record<string, unknown>): string | null {
  if (model.protocol === 'legacy') {
    if (!model.image) return input.img_url === undefined ? null : 'img_url is not taken';
    return typeof input.img_url === 'string' && IMAGE.test(input.img_url) ? null : 'image-to-video model must provide an image';
  }
  const media = input.media;
  if (!model.image && !model.source) return media === undefined ? null : 'media is not taken';
  if (!Array.isArray(media)) return model.image ? 'image-to-video model must provide an image' : 'a video is required';
  const types = media.map((item: { type?: unknown; url?: unknown }) =>
    typeof item?.url === 'string' && (item.type === model.source ? VIDEO : IMAGE).test(item.url) ? item.type : null,
  );
  const count = (type: string) => types.filter((one) => one === type).length;
  if (model.source === 'video') {
    // wan2.7-videoedit: one video, up to 4 reference images.
    if (count('video') !== 1 || count('reference_image') > 4) return 'a video is required';
    return types.every((type) => type === 'video' || type === 'reference_image') ? null : 'a media type is not taken';
  }
  // wan2.7-i2v: a first frame or a first clip (continuation: an optional last frame, no driving audio).
  const clip = model.source !== undefined ? count(model.source) : 0;
  if (count('first_frame') + clip !== 1) return 'image-to-video model must provide an image';
  if (clip === 1 && count('driving_audio') > 0) return 'driving_audio is not taken with first_clip';
  const taken = (type: unknown) =>
    type === 'first_frame' || (clip === 1 && type === model.source) || model.moreMedia?.includes(String(type));
  return types.every(taken) ? null : 'a media type is not taken';
}

/** The resolution (`720P`) of a legacy text-to-video `size` (`1280*720`), or undefined for a size it does not make. */
function resolutionOfSize(size: unknown, model: ServedModel): string | undefined {
  return model.resolutions.find((resolution) => Object.values(WAN_LEGACY_SIZES[resolution] ?? {}).includes(String(size)));
}

/** `2026-09-29 14:18:52.331`, as DashScope writes times (UTC here). */
function dashScopeTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function fail(status: number, code: string, headers?: Record<string, string>): EmulatorReply {
  return { status, headers, json: { request_id: randomUUID(), code, message: MESSAGES[code] ?? `${code} (simulated)` } };
}
