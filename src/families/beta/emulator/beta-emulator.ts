import { askedSeconds, askedText } from '../../simulator-shared/asked-video';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ownValue } from '../../../common/runtime/own-value';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { BETA_SUBMIT_PATH, type BetaQueryBody } from '../beta-protocol';
import { BETA_BUILTIN_MODELS } from '../beta-builtin-models';
import type { BetaCapability } from '../beta-request';
import { stepOfQuery } from '../../shared/emulator-steps';

/**
 * A task's status in a script, one per query (the last repeats): a status, an end other than success
 * (`{ status, code?, message? }`), or an HTTP answer for that one query (`{ http, body }` any JSON;
 * `{ http, raw }` these bytes as they are, e.g. a body of 60 MB).
 */
export type BetaStep =
  | 'PENDING'
  | 'RUNNING'
  | 'SUCCEEDED'
  | { status: 'FAILED' | 'CANCELED' | 'UNKNOWN'; code?: string; message?: string }
  | { http: number; body?: unknown; raw?: string | Buffer };

/** A synchronous error a test queued: the provider's error body, answered instead of the next submit (or query). */
export interface BetaScriptedError {
  status: number;
  code?: string;
  message?: string;
  headers?: Record<string, string>;
}

export const SIMULATED_PENDING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
/** The provider's video links live 24 h. */
const URL_VALIDITY_S = 24 * 3600;
/** The provider forgets tasks after 24 h (then answers UNKNOWN). */
const FORGET_AFTER_MS = 24 * 3600_000;
const TASK = 'beta.task';
const EXPIRED_LINK =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired or the signature does not match.</Message></Error>';

type Media = { type?: unknown; url?: unknown };

interface EmulatedTask {
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  ratio: string;
  inputVideo: boolean;
  /** The request's `parameters` as sent (absent on older records); the fields above fill in the provider's defaults. */
  parameters?: Record<string, unknown>;
  /** How the task ends by the clock (prompt markers), or null for a video. */
  failure: { code: string; message: string } | null;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: BetaStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: PENDING 2 s, RUNNING until 6 s, then done. */
export interface BetaEmulatorOptions extends ScriptedEmulatorOptions<BetaStep> {
  apiKey: string;
  /** Signs the video links (the simulator's derives from the server secret, so links handed out before a restart still play). */
  linkKey: () => Buffer | string;
  /** The models it serves, by capability; BETA_SERVED_MODELS unless told (a channel's model_mapping may name others). */
  models?: Readonly<Record<string, BetaCapability>>;
}

/**
 * The family B provider (docs/upstream-protocols.md, Family B), one emulator for the embedded
 * simulator and the tests: Bearer key on submit and query (401 InvalidApiKey), `X-DashScope-Async:
 * enable` on submit (403 AccessDenied), the body checked against the models' media and parameter
 * rules, UNKNOWN for a task it never saw or forgot (24 h), usage numbers written as floats (`5.0`),
 * and the video at a signed link (`Expires`, `Signature`; 24 h; no key; a bad one is OSS's 403 XML).
 * Prompt markers: `[simulate:reject]` 400 InvalidParameter, `[simulate:busy]` 429 Throttling.RateQuota
 * at submit; `[simulate:fail]` FAILED InternalError.Algo, `[simulate:moderation]` FAILED
 * DataInspectionFailed. Tests also script statuses (of the next task, or of one already sent), queue
 * submit and query errors and expire the links handed out.
 */
export class BetaEmulator extends ScriptedEmulator<BetaStep, BetaScriptedError, BetaEmulatorOptions> {
  private readonly queryErrors: BetaScriptedError[] = [];
  private readonly taskIds: string[] = [];
  private linkKey: () => Buffer | string;

  constructor(options: BetaEmulatorOptions) {
    super(options, FORGET_AFTER_MS);
    this.linkKey = options.linkKey;
  }

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/beta`), for the video links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const video = fileLinkMatch(req, /^\/videos\/([^/]+)\.mp4$/);
    if (video) return this.video(video[1], req.query);
    const query = /^\/api\/v1\/tasks\/([^/]+)$/.exec(req.path);
    const submit = req.method === 'POST' && req.path === BETA_SUBMIT_PATH;
    if (!submit && !(query && req.method === 'GET')) return fail(404, 'NotFound', `no route ${req.method} ${req.path}`);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return fail(401, 'InvalidApiKey', 'Invalid API-key provided.');
    return submit ? this.submit(req) : this.query(decodeURIComponent(query![1]), base);
  }

  /** A task already sent follows these statuses from its next query on (tests). */
  async scriptTask(id: string, steps: BetaStep[]): Promise<void> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) throw new Error(`beta emulator: unknown task ${id}`);
    await this.options.records.update(TASK, id, { ...record.data, script: steps, queries: 0 });
  }

  /** The next query answers this error instead. */
  failNextQuery(error: BetaScriptedError): void {
    this.queryErrors.push(error);
  }

  /** Every video link handed out so far answers 403, as an expired one does (later queries sign anew). */
  expireVideoLinks(): void {
    const key = randomBytes(32);
    this.linkKey = () => key;
  }

  /** The ids of the tasks it accepted, in order. */
  createdTaskIds(): string[] {
    return [...this.taskIds];
  }

  private async submit(req: EmulatorRequest): Promise<EmulatorReply> {
    if (req.headers['x-dashscope-async'] !== 'enable')
      return fail(403, 'AccessDenied', 'current user api does not support synchronous calls');
    const injected = this.takeSubmitFailure();
    if (injected) return fail(injected.status, injected.code ?? 'InternalError', injected.message ?? 'injected error', injected.headers);
    const body = (req.json ?? {}) as {
      model?: unknown;
      input?: { prompt?: unknown; media?: unknown };
      parameters?: Record<string, unknown>;
    };
    const capability = ownValue(this.options.models ?? BETA_SERVED_MODELS, String(body.model));
    if (!capability) return fail(400, 'InvalidParameter', 'Model not exist.');
    const prompt = body.input?.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      return fail(
        400,
        'BadRequest.EmptyInput',
        'Required parameter(s) missing or invalid, please check the request parameters: input.prompt',
      );
    if (prompt.includes('[simulate:reject]')) return fail(400, 'InvalidParameter', 'The request is invalid. (simulated)');
    if (prompt.includes('[simulate:busy]'))
      return fail(429, 'Throttling.RateQuota', 'Requests rate limit exceeded, please try again later. (simulated)');
    const media = Array.isArray(body.input?.media) ? (body.input.media as Media[]) : [];
    const parameters = body.parameters ?? {};
    const problem = mediaProblem(capability, media) ?? parameterProblem(capability, parameters, String(body.model));
    if (problem) return fail(400, 'InvalidParameter', problem);
    await this.forgetOld(TASK);
    const task: EmulatedTask = {
      model: String(body.model),
      prompt,
      duration: typeof parameters.duration === 'number' ? parameters.duration : 5,
      resolution: typeof parameters.resolution === 'string' ? parameters.resolution : '1080P',
      ratio: typeof parameters.ratio === 'string' ? parameters.ratio : '16:9',
      inputVideo: capability === 'video-edit',
      parameters,
      failure: markedEnd(prompt, {
        moderation: { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content. (simulated)' },
        fail: { code: 'InternalError.Algo', message: 'An internal error occurred during video generation. (simulated)' },
      }),
      ...this.takeScript(),
    };
    const { key } = await this.options.records.insertOrGet(TASK, randomUUID(), task);
    this.taskIds.push(key);
    return { status: 200, json: { request_id: randomUUID(), output: { task_id: key, task_status: 'PENDING' } } };
  }

  /** The provider's query answer; a scripted task moves one step per query. */
  private async query(id: string, base: string): Promise<EmulatorReply> {
    const injected = this.queryErrors.shift();
    if (injected) return fail(injected.status, injected.code ?? 'InternalError', injected.message ?? 'injected error', injected.headers);
    const requestId = randomUUID();
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return { status: 200, json: { request_id: requestId, output: { task_id: id, task_status: 'UNKNOWN' } } };
    const task = record.data;
    const step = await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt));
    if (typeof step === 'object' && 'http' in step) {
      if (step.raw !== undefined) return { status: step.http, raw: step.raw, type: 'application/json' };
      return { status: step.http, json: step.body ?? { code: 'InternalError', message: 'injected' } };
    }
    const submittedAt = record.createdAt;
    const status = typeof step === 'string' ? step : step.status;
    const output: NonNullable<BetaQueryBody['output']> = { task_id: id, task_status: status, submit_time: providerTime(submittedAt) };
    if (status !== 'PENDING') output.scheduled_time = providerTime(submittedAt + SIMULATED_PENDING_MS);
    if (typeof step === 'object') {
      output.end_time = providerTime(submittedAt + SIMULATED_DONE_MS);
      if (step.code) output.code = step.code;
      if (step.message) output.message = step.message;
    }
    if (status !== 'SUCCEEDED') return { status: 200, json: { request_id: requestId, output } };
    Object.assign(output, {
      end_time: providerTime(submittedAt + SIMULATED_DONE_MS),
      orig_prompt: task.prompt,
      video_url: this.signedUrl(base, id),
    });
    const duration = float(task.duration);
    // Written by hand: the provider sometimes sends its usage numbers as floats (5.0), which JSON.stringify cannot.
    const usage = `{"duration":${duration},"input_video_duration":${task.inputVideo ? duration : '0.0'},"output_video_duration":${duration},"video_count":1.0,"SR":${task.resolution === '720P' ? 720 : 1080}.0,"ratio":${JSON.stringify(task.ratio)}}`;
    const raw = `{"request_id":${JSON.stringify(requestId)},"output":${JSON.stringify(output)},"usage":${usage}}`;
    return { status: 200, raw, type: 'application/json' };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): BetaStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_PENDING_MS) return 'PENDING';
    if (elapsed < SIMULATED_DONE_MS) return 'RUNNING';
    return task.failure ? { status: 'FAILED', ...task.failure } : 'SUCCEEDED';
  }

  private signedUrl(base: string, id: string): string {
    const expires = String(Math.floor(this.options.now() / 1000) + URL_VALIDITY_S);
    return `${base}/videos/${id}.mp4?Expires=${expires}&OSSAccessKeyId=emulator&Signature=${this.sign(id, expires)}`;
  }

  private sign(id: string, expires: string): string {
    return createHmac('sha256', this.linkKey()).update(`${id}\n${expires}`).digest('base64url');
  }

  /** A signed link (no key): the video while the signature is ours and `Expires` has not passed, else OSS's 403. */
  private async video(id: string, query: URLSearchParams): Promise<EmulatorReply> {
    const expires = query.get('Expires') ?? '';
    const denied: EmulatorReply = { status: 403, raw: EXPIRED_LINK, type: 'application/xml' };
    if (!/^\d+$/.test(expires) || Number(expires) * 1000 < this.options.now()) return denied;
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return denied;
    const expected = Buffer.from(this.sign(id, expires));
    const given = Buffer.from(query.get('Signature') ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return denied;
    return this.videoReply(askedOf(record.data));
  }
}

/**
 * The shape a task's request asked: its parameters' duration, resolution and ratio (the protocol has no audio
 * switch). A video edit says no duration (its output follows its input video): it gets the longest its model
 * makes, what the gateway charges a video edit.
 */
function askedOf(task: EmulatedTask): AskedVideo {
  const { duration, resolution, ratio } = task.parameters ?? {};
  const longest = task.inputVideo ? (ownValue(WIDER_LIMITS, task.model) ?? BUILTIN_LIMITS).seconds[1] : undefined;
  return {
    seconds: askedSeconds(duration) ?? longest,
    resolution: askedText(resolution),
    aspectRatio: askedText(ratio),
  };
}

function fail(status: number, code: string, message: string, headers?: Record<string, string>): EmulatorReply {
  return { status, headers, json: { request_id: randomUUID(), code, message } };
}

/** `YYYY-MM-DD hh:mm:ss.mmm`, the provider's timestamp text. */
function providerTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** A number as the provider writes it in usage: `5.0`, `7.5`. */
function float(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/**
 * What it serves: the builtin models, and beta-2.0-t2v, which an operator adds as a catalog entry
 * (text to video, 2 to 20 s, also 480P).
 */
export const BETA_SERVED_MODELS: Readonly<Record<string, BetaCapability>> = { ...BETA_BUILTIN_MODELS, 'beta-2.0-t2v': 't2v' };
const BUILTIN_LIMITS = { seconds: [3, 15], resolutions: ['720P', '1080P'] };
const WIDER_LIMITS: Readonly<Record<string, typeof BUILTIN_LIMITS>> = {
  'beta-2.0-t2v': { seconds: [2, 20], resolutions: ['480P', '720P', '1080P'] },
};

/** The provider's media rules per model. */
function mediaProblem(capability: BetaCapability, media: Media[]): string | null {
  const count = (type: string) => media.filter((element) => element?.type === type).length;
  if (media.some((element) => typeof element?.url !== 'string' || !element.url)) return 'every input.media element needs a url';
  switch (capability) {
    case 't2v':
      return media.length ? 'text-to-video takes no input.media' : null;
    case 'i2v':
      return count('first_frame') === 1 && media.length === 1 ? null : 'image-to-video needs exactly one first_frame';
    case 'r2v':
      return count('reference_image') >= 1 && count('reference_image') <= 9 && count('reference_image') === media.length
        ? null
        : 'reference-to-video needs 1 to 9 reference_image';
    default:
      return count('video') === 1 && count('reference_image') <= 5 && media.length === count('video') + count('reference_image')
        ? null
        : 'video-edit needs exactly one video and at most 5 reference_image';
  }
}

function parameterProblem(capability: BetaCapability, parameters: Record<string, unknown>, model: string): string | null {
  const limits = ownValue(WIDER_LIMITS, model) ?? BUILTIN_LIMITS;
  if (parameters.resolution !== undefined && !limits.resolutions.includes(String(parameters.resolution)))
    return `parameters.resolution must be ${limits.resolutions.join(' or ')}`;
  if ((capability === 'i2v' || capability === 'video-edit') && parameters.ratio !== undefined)
    return `parameters.ratio is not supported by ${capability}`;
  if (capability === 'video-edit' && parameters.duration !== undefined) return 'parameters.duration is not supported by video-edit';
  const duration = parameters.duration;
  const [from, to] = limits.seconds;
  if (duration !== undefined && (typeof duration !== 'number' || duration < from || duration > to))
    return `parameters.duration must be between ${from} and ${to}`;
  return null;
}
