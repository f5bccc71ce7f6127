import { randomInt, randomUUID } from 'node:crypto';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog, type LoggedCreate } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf } from '../../simulator-shared/request-fields';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { klingTokenCode } from '../kling-jwt';
import { type DurationSpec, secondsOf } from '../../../catalog/catalog-entry';
import { KLING_DURATIONS, KLING_MODELS, KLING_RESOLUTION_OF_MODE, KLING_V3_DURATIONS } from '../kling-models';
import type { KlingEndpoint, KlingTaskData } from '../kling-protocol';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';
import { askedFromSource, type FetchedSource, fetchSourceVideo } from '../../simulator-shared/source-video-fetch';

/** A task's status in a script: one per query (the last repeats); `{ failed }` carries Kling's `task_status_msg`. */
export type KlingStep = 'submitted' | 'processing' | 'succeed' | { failed: string };

export const SIMULATED_SUBMITTED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'kling.task';
const ENDPOINTS: readonly string[] = ['text2video', 'image2video', 'omni-video'];
const lengths = (durations: DurationSpec): readonly string[] => secondsOf(durations).map(String);
/**
 * The models Kling serves on text2video and image2video and their lengths (as strings, as its wire
 * takes them): the builtin ones, and kling-v3-1 (3 to 15 s), a newer model the README's operator adds
 * as a catalog entry.
 */
const SERVED_DURATIONS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(
    Object.entries(KLING_MODELS)
      .filter(([, model]) => !model.omni)
      .map(([name, model]) => [name, lengths(model.durations ?? KLING_DURATIONS)]),
  ),
  'kling-v3-1': lengths(KLING_V3_DURATIONS),
};
/** The omni-video endpoint's models: kling-v3-omni (3 to 15 s) and Kling O1 (3 to 10 s). */
const OMNI_DURATIONS: Readonly<Record<string, readonly string[]>> = {
  'kling-v3-omni': lengths(KLING_V3_DURATIONS),
  'kling-video-o1': lengths({ min: 3, max: 10 }),
};

/** Kling's words for its codes; the ones a test injects carry text the gateway must never pass on. */
const MESSAGES: Readonly<Record<number, string>> = {
  1001: 'Authorization is empty',
  1002: 'Authorization is invalid',
  1003: 'Authorization is not yet valid',
  1004: 'Authorization has expired',
  1101: 'Account is in arrears at http://10.0.0.5/billing',
  1102: 'Resource pack depleted',
  1201: 'invalid param: duration at http://10.0.0.9/x',
  1202: 'not found',
  1203: 'task not found',
  1301: 'Content security policy violation',
  1303: 'parallel task over resource pack limit',
  5000: 'internal error',
};

interface EmulatedTask {
  endpoint: KlingEndpoint;
  duration: string;
  /** `final_unit_deduction` once it succeeded (the emulator's own rate: 0.6 a second in std, 0.8 in pro, 1.5 times with sound). */
  units?: string;
  /** What the create asked of its video; absent on older records (then the simulator's generous default). */
  asked?: AskedVideo;
  /** `task_status_msg` of a task that ends failed (prompt markers), or null. */
  failure: string | null;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: KlingStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: submitted 2 s, processing until 6 s, then done. */
export interface KlingEmulatorOptions extends ScriptedEmulatorOptions<KlingStep> {
  /** The one key pair whose tokens it accepts. */
  accessKey: string;
  secretKey: string;
}

/** A submit failure a test queued: Kling's error body with this code, answered instead of the next create. */
export interface KlingScriptedFailure {
  status: number;
  code: number;
  headers?: Record<string, string>;
}

/** The claims of a token that passed the check. */
export interface KlingTokenClaims {
  iss: string;
  exp: number;
  nbf?: number;
}

/** A create the emulator accepted: its endpoint, body and request. */
export type KlingCreate = LoggedCreate<{ endpoint: KlingEndpoint }>;

/**
 * Kling's video API (docs/upstream-protocols.md, Family Kling; omni-video: upstream-protocols-wires.md, 4),
 * one emulator for the embedded simulator and the tests: an HS256 JWT signed with the secret key of the
 * access key in `iss` on every API call (401 with Kling's 1001-1004 otherwise), `text2video`,
 * `image2video` and `omni-video` checked against their models (and omni's rules; a `video_list` video
 * fetched from its URL as Kling does, a `base` one edited at its own length), `final_unit_deduction`
 * on a task that succeeded,
 * each task queried on its own endpoint's path (the other one's answers 404/1203), and the video at a
 * CDN link that needs no key. Prompt markers: `[simulate:reject]` 400/1301, `[simulate:busy]`
 * 429/1303, `[simulate:moderation]` a task failed by the risk control, `[simulate:fail]` a failed task.
 * Tests also script statuses and queue submit errors; it logs requests, accepted creates and tokens.
 */
export class KlingEmulator extends ScriptedEmulator<KlingStep, KlingScriptedFailure, KlingEmulatorOptions> {
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: KlingCreate[] = [];
  /** The claims of every token that passed, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly tokens: KlingTokenClaims[] = [];
  /** Every source video an omni-video create fetched (`video_list`), oldest first. */
  readonly sourceFetches: FetchedSource[] = [];
  private everySubmit: KlingScriptedFailure | null = null;

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/kling`), for the CDN links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const cdn = fileLinkMatch(req, /^\/cdn\/(\d{1,32})\.mp4$/);
    if (cdn) return this.video(cdn[1]);
    const authCode = this.checkToken(req.headers.authorization);
    if (authCode !== 0) return fail(401, authCode, MESSAGES[authCode]);
    const create = /^\/v1\/videos\/([^/]+)$/.exec(req.path);
    if (create && req.method === 'POST') return this.create(create[1], req);
    const query = /^\/v1\/videos\/([^/]+)\/([^/]+)$/.exec(req.path);
    if (query && req.method === 'GET') return this.query(query[1], query[2], base);
    return fail(404, 1202, MESSAGES[1202]);
  }

  /** Every create answers this error (after the queued ones) until it is called with null: a provider down, then healed. */
  failEverySubmit(failure: KlingScriptedFailure | null): void {
    this.everySubmit = failure;
  }

  /** Kling's check (`klingTokenCode`), against real time: the gateway signs with it, whatever the task clock says. */
  private checkToken(header: string | string[] | undefined): number {
    const authorization = typeof header === 'string' ? header : undefined;
    const { accessKey, secretKey } = this.options;
    const code = klingTokenCode(authorization, (iss) => (iss === accessKey ? secretKey : undefined), Date.now());
    if (code === 0) keepInLog(this.tokens, claimsOf(authorization!));
    return code;
  }

  private async create(endpoint: string, req: EmulatorRequest): Promise<EmulatorReply> {
    if (!ENDPOINTS.includes(endpoint)) return fail(404, 1202, MESSAGES[1202]);
    const failure = this.takeSubmitFailure() ?? this.everySubmit;
    if (failure) return fail(failure.status, failure.code, MESSAGES[failure.code] ?? 'error', failure.headers);
    const body = jsonFieldsOf(req);
    const { model_name: model, prompt = '', image } = body;
    const served = endpoint === 'omni-video' ? OMNI_DURATIONS : SERVED_DURATIONS;
    if (typeof model !== 'string' || !Object.hasOwn(served, model)) return fail(400, 1201, 'model_name is invalid');
    if (typeof prompt !== 'string' || (endpoint === 'text2video' && prompt.trim() === '')) return fail(400, 1201, 'prompt is required');
    // A `base` video is edited at its own length: no duration is taken beside it.
    const editing = endpoint === 'omni-video' && baseVideoOf(body) !== null;
    const { duration = editing ? undefined : '5' } = body;
    if (!editing && (typeof duration !== 'string' || !served[model].includes(duration)))
      return fail(400, 1201, `duration must be one of ${served[model].join(', ')}`);
    if (endpoint === 'image2video' && (typeof image !== 'string' || image === '')) return fail(400, 1201, 'image is required');
    const omniRefusal = endpoint === 'omni-video' ? (refusedOmni(body) ?? refusedVideos(body)) : null;
    if (omniRefusal) return fail(400, 1201, omniRefusal);
    const video = endpoint === 'omni-video' ? videoOf(body) : null;
    let source: FetchedSource | null = null;
    if (video) {
      source = await fetchSourceVideo(video.video_url);
      if (!source) return fail(400, 1201, 'video_url could not be fetched: it must be a public URL of a video (simulated)');
      keepInLog(this.sourceFetches, source);
      if (source.seconds !== null && (source.seconds < 3 || source.seconds > 10))
        return fail(400, 1201, 'the video in video_list must be 3 to 10 seconds long (simulated)');
    }
    const seconds = editing ? String(source?.seconds ?? 5) : (duration as string);
    if (prompt.includes('[simulate:reject]')) return fail(400, 1301, 'Content security policy violation (simulated)');
    if (prompt.includes('[simulate:busy]')) return fail(429, 1303, 'parallel task over resource pack limit (simulated)');
    await this.forgetOld(TASK);
    const task: EmulatedTask = {
      endpoint: endpoint as KlingEndpoint,
      duration: seconds,
      units: unitsOf({ ...body, duration: seconds }),
      asked: source ? { ...askedOf(body), ...askedFromSource(source, Number(seconds)) } : askedOf(body),
      failure: markedEnd(prompt, {
        moderation: 'Failure to pass the risk control system (simulated)',
        fail: 'Video generation failed (simulated)',
      }),
      ...this.takeScript(),
    };
    // Kling's ids are long decimal strings.
    const id = `8${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e8)).padStart(8, '0')}`;
    const record = await this.options.records.insertOrGet(TASK, id, task);
    keepInLog(this.creates, { endpoint: task.endpoint, body, request: req });
    // Kling posts the task's `data` on a status change, unsigned: here once it ends.
    if (typeof body.callback_url === 'string')
      this.callbacks.schedule(body.callback_url, SIMULATED_DONE_MS, async () => this.callbackData(record.key));
    const data: KlingTaskData = {
      task_id: record.key,
      task_status: 'submitted',
      task_status_msg: '',
      created_at: record.createdAt,
      updated_at: record.createdAt,
    };
    return { status: 200, json: { code: 0, message: 'SUCCEED', request_id: randomUUID(), data } };
  }

  /** What Kling's callback carries: the task's `data`, as it is now (no query counted). */
  private async callbackData(id: string): Promise<KlingTaskData | null> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    return {
      task_id: id,
      task_status: typeof step === 'string' ? step : 'failed',
      task_status_msg: typeof step === 'string' ? '' : step.failed,
      created_at: record.createdAt,
      updated_at: this.options.now(),
    };
  }

  /** The task as its own endpoint's query shows it (another endpoint's path does not find it); a scripted task moves one step per query. */
  private async query(endpoint: string, id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || record.data.endpoint !== endpoint) return fail(404, 1203, MESSAGES[1203]);
    const task = record.data;
    const step = await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt));
    const now = this.options.now();
    const data: KlingTaskData = {
      task_id: id,
      task_status: typeof step === 'string' ? step : 'failed',
      task_status_msg: typeof step === 'string' ? '' : step.failed,
      created_at: record.createdAt,
      updated_at: task.script ? now : Math.min(now, record.createdAt + SIMULATED_DONE_MS),
    };
    if (step === 'succeed') {
      data.task_result = { videos: [{ id: `${id}-0`, url: `${base}/cdn/${id}.mp4`, duration: task.duration }] };
      if (task.units !== undefined) data.final_unit_deduction = task.units;
    }
    return { status: 200, json: { code: 0, message: 'SUCCEED', request_id: randomUUID(), data } };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): KlingStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_SUBMITTED_MS) return 'submitted';
    if (elapsed < SIMULATED_DONE_MS) return 'processing';
    return task.failure ? { failed: task.failure } : 'succeed';
  }

  /** The "CDN" video: like Kling's, no key needed; there only once the task succeeded. */
  private video(id: string): Promise<EmulatorReply> {
    return this.finishedVideo<EmulatedTask>(
      TASK,
      id,
      (task, createdAt) => stepNow(task, () => this.stepByClock(task, createdAt)) === 'succeed',
    );
  }
}

/** What a create body asks of its video: `duration`, `mode` (std 720p, pro 1080p), `aspect_ratio`, `sound`; unsaid stays undefined. */
function askedOf(body: Record<string, unknown>): AskedVideo {
  const { duration, mode, aspect_ratio: aspectRatio, sound } = body;
  return {
    seconds: typeof duration === 'string' && duration.trim() !== '' ? Number(duration) : undefined,
    resolution: mode === 'std' || mode === 'pro' ? KLING_RESOLUTION_OF_MODE[mode] : undefined,
    aspectRatio: typeof aspectRatio === 'string' ? aspectRatio : undefined,
    audio: sound === 'on' ? true : sound === 'off' ? false : undefined,
  };
}

/**
 * What omni-video refuses (upstream-protocols-wires.md, 4.3 and 4.11): an end frame without a first,
 * sound over a reference video, a first frame with a video to edit, no aspect ratio for a video made
 * from nothing, no prompt outside custom multi-shot, shots that do not add up to the duration.
 */
function refusedOmni(body: Record<string, unknown>): string | null {
  const { image_list: images = [], video_list: videos = [], sound, aspect_ratio: ratio, prompt, duration } = body;
  if (!Array.isArray(images) || !Array.isArray(videos)) return 'image_list and video_list must be arrays';
  const frames = (images as Array<{ image_url?: unknown; type?: unknown }>).map((item) => item?.type);
  if ((images as Array<{ image_url?: unknown }>).some((item) => typeof item?.image_url !== 'string' || item.image_url === ''))
    return 'image_list[].image_url is required';
  if (frames.some((type) => type !== undefined && type !== 'first_frame' && type !== 'end_frame')) return 'image_list[].type is invalid';
  if (frames.includes('end_frame') && !frames.includes('first_frame')) return 'end_frame needs a first_frame';
  if (sound === 'on' && videos.length > 0) return 'sound must be off with video_list';
  const editing = (videos as Array<{ refer_type?: unknown }>).some((video) => video?.refer_type === 'base');
  if (editing && frames.includes('first_frame')) return 'first_frame is not taken with a base video';
  if (!frames.includes('first_frame') && !editing && typeof ratio !== 'string') return 'aspect_ratio is required';
  const customShots = body.multi_shot === true && body.shot_type === 'customize';
  if (!customShots && (typeof prompt !== 'string' || prompt.trim() === '')) return 'prompt is required';
  if (body.multi_shot === true && Array.isArray(body.multi_prompt)) {
    const total = (body.multi_prompt as Array<{ duration?: unknown }>).reduce((sum, shot) => sum + Number(shot?.duration), 0);
    if (total !== Number(duration)) return 'multi_prompt durations must add up to duration';
  }
  return null;
}

/** omni-video's `video_list` items as sent (upstream-protocols-wires.md, 4.3). */
interface SentVideo {
  video_url?: unknown;
  refer_type?: unknown;
  keep_original_sound?: unknown;
}

/** The one video of `video_list`, when there is one. */
function videoOf(body: Record<string, unknown>): { video_url: string; refer_type: string } | null {
  const videos = body.video_list;
  if (!Array.isArray(videos) || videos.length === 0) return null;
  return videos[0] as { video_url: string; refer_type: string };
}

function baseVideoOf(body: Record<string, unknown>): SentVideo | null {
  const video = videoOf(body);
  return video?.refer_type === 'base' ? video : null;
}

/**
 * What omni-video refuses of `video_list` (upstream-protocols-wires.md, 4.3): more than one video, an
 * item without its URL, a `refer_type` other than base or feature, `keep_original_sound` other than
 * yes or no, and beside a `base` video a duration or an aspect ratio (the edit follows the video).
 */
function refusedVideos(body: Record<string, unknown>): string | null {
  const videos = (body.video_list ?? []) as SentVideo[];
  if (videos.length > 1) return 'video_list takes one video';
  const [video] = videos;
  if (!video) return null;
  if (typeof video.video_url !== 'string' || video.video_url === '') return 'video_list[].video_url is required';
  if (video.refer_type !== 'base' && video.refer_type !== 'feature') return 'video_list[].refer_type must be base or feature';
  if (video.keep_original_sound !== undefined && video.keep_original_sound !== 'yes' && video.keep_original_sound !== 'no')
    return 'video_list[].keep_original_sound must be yes or no';
  if (video.refer_type === 'base' && (body.duration !== undefined || body.aspect_ratio !== undefined))
    return 'duration and aspect_ratio are not taken with a base video';
  return null;
}

/** The units a create will cost once it succeeded, as Kling writes them (`"4.5"`). */
function unitsOf(body: Record<string, unknown>): string {
  const seconds = Number(body.duration ?? 5) || 5;
  const units = seconds * (body.mode === 'pro' ? 0.8 : 0.6) * (body.sound === 'on' ? 1.5 : 1);
  return String(Math.round(units * 100) / 100);
}

/** The claims of a token `klingTokenCode` accepted (so well formed). */
function claimsOf(authorization: string): KlingTokenClaims {
  const claims = JSON.parse(Buffer.from(authorization.slice('Bearer '.length).split('.')[1], 'base64url').toString()) as KlingTokenClaims;
  return { iss: claims.iss, exp: claims.exp, ...(typeof claims.nbf === 'number' ? { nbf: claims.nbf } : {}) };
}

function fail(status: number, code: number, message: string, headers?: Record<string, string>): EmulatorReply {
  return { status, headers, json: { code, message, request_id: randomUUID() } };
}
