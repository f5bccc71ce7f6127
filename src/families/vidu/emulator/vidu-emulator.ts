import { signViduCallback } from '../vidu-callback-signature';
import { randomInt, randomUUID } from 'node:crypto';
import { askedFlag, askedOfUsualKeys } from '../../simulator-shared/asked-video';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog, type LoggedCreate } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf, textOrEmpty } from '../../simulator-shared/request-fields';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { viduAuthorization, ViduEndpoint, ViduTask } from '../vidu-protocol';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';

/** A task's state in a script: one per query (the last repeats); `{ failed }` carries Vidu's `err_code`. */
export type ViduStep = 'created' | 'queueing' | 'processing' | 'success' | { failed: string };

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'vidu.task';
const RESOLUTIONS = ['540p', '720p', '1080p'];
const ASPECTS = ['16:9', '9:16', '1:1', '4:3', '3:4'];

/** What one model takes on each endpoint: its lengths, and whether it speaks `audio` (q3) or `bgm`. */
interface ServedModel {
  endpoints: readonly ViduEndpoint[];
  maxSeconds: number;
  /** start-end2video's own limit (q2: 8 s). */
  maxStartEndSeconds: number;
  audio: boolean;
}
const IMAGES_ONLY: readonly ViduEndpoint[] = ['img2video', 'start-end2video'];
/**
 * The models Vidu serves (docs/upstream-protocols-aggregators.md, Vidu): the builtin ones, and
 * `viduq2` (text-to-video, 1 to 10 s, `bgm`), which an operator adds as a catalog entry.
 */
const SERVED: Readonly<Record<string, ServedModel>> = {
  'viduq3-pro': { endpoints: ['text2video', ...IMAGES_ONLY], maxSeconds: 16, maxStartEndSeconds: 16, audio: true },
  'viduq3-turbo': { endpoints: ['text2video', ...IMAGES_ONLY], maxSeconds: 16, maxStartEndSeconds: 16, audio: true },
  'viduq2-pro': { endpoints: IMAGES_ONLY, maxSeconds: 10, maxStartEndSeconds: 8, audio: false },
  'viduq2-turbo': { endpoints: IMAGES_ONLY, maxSeconds: 10, maxStartEndSeconds: 8, audio: false },
  viduq2: { endpoints: ['text2video'], maxSeconds: 10, maxStartEndSeconds: 10, audio: false },
};
const ENDPOINTS: readonly string[] = ['text2video', 'img2video', 'start-end2video'];
const IMAGE = /^(https?:\/\/\S+|data:image\/(png|jpe?g|webp);base64,[A-Za-z0-9+/]+={0,2})$/;

/** Vidu's words for its codes; the ones a test injects carry text the gateway must never pass on. */
const MESSAGES: Readonly<Record<string, string>> = {
  Unauthorized: 'invalid token (simulated)',
  BadRequest: 'bad request at http://10.0.0.9/ent (simulated)',
  FieldInvalid: 'field is invalid (simulated)',
  FieldLacking: 'field is missing or empty (simulated)',
  FieldUnwanted: 'field is not wanted (simulated)',
  AuditSubmitIllegal: 'the input did not pass the audit at http://10.0.0.5/audit (simulated)',
  CreditInsufficient: 'credit insufficient for account 42 (simulated)',
  QuotaExceeded: 'concurrency quota exceeded (simulated)',
  TaskNotFound: 'task not found (simulated)',
  NotFound: 'not found',
  InternalServiceFailure: 'internal failure at http://10.0.0.7/worker (simulated)',
};

interface EmulatedTask {
  model: string;
  endpoint: ViduEndpoint;
  duration: number;
  /** What the create asked of its video; absent on older records (then the simulator's generous default). */
  asked?: AskedVideo;
  credits: number;
  /** `err_code` of a task that ends failed (prompt markers), or null. */
  failure: string | null;
  cancelled: boolean;
  /** A test's script: the state of each query in turn; absent, the state follows the clock. */
  script?: ViduStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: queued 2 s, processing until 6 s, then done. */
export interface ViduEmulatorOptions extends ScriptedEmulatorOptions<ViduStep> {
  /** The one key it accepts, as `Authorization: Token <key>`. */
  apiKey: string;
}

/** A submit failure a test queued: Vidu's error body with this `reason`, answered instead of the next create. */
export interface ViduScriptedFailure {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

/** A create the emulator accepted: its endpoint, body and request. */
export type ViduCreate = LoggedCreate<{ endpoint: ViduEndpoint }>;

/**
 * Vidu's ent/v2 API (docs/upstream-protocols-aggregators.md, section 3), one emulator for the embedded
 * simulator and the tests: `Authorization: Token <key>` on every API call (401 `Unauthorized`
 * otherwise, a Bearer key included), text2video, img2video and start-end2video checked against the
 * models (1 or 2 images, lengths, resolutions, `audio` on q3 and `bgm` before, aspect_ratio on
 * text2video only), task queries with `credits`, cancel (`{}` while created or queueing, 400
 * BadRequest after), and the video at a CDN link that needs no key. Prompt markers:
 * `[simulate:reject]` 400 AuditSubmitIllegal, `[simulate:busy]` 429 QuotaExceeded, `[simulate:credits]`
 * 400 CreditInsufficient, `[simulate:moderation]` a task failed with CreationPolicyViolation,
 * `[simulate:fail]` one failed with InternalServiceFailure. Tests also script states and queue
 * submit errors; it logs requests, accepted creates and cancels.
 */
export class ViduEmulator extends ScriptedEmulator<ViduStep, ViduScriptedFailure, ViduEmulatorOptions> {
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: ViduCreate[] = [];
  /** Every cancel request, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly cancels: EmulatorRequest[] = [];

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/vidu`), for the CDN links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const cdn = fileLinkMatch(req, /^\/cdn\/(\d{1,32})\.(mp4|jpg)$/);
    if (cdn) return this.video(cdn[1], cdn[2]);
    if (req.headers.authorization !== viduAuthorization(this.options.apiKey)) return fail(401, 'Unauthorized');
    const create = /^\/ent\/v2\/([\w-]+)$/.exec(req.path);
    if (create && req.method === 'POST') return this.create(create[1], req);
    const query = /^\/ent\/v2\/tasks\/([^/]+)\/creations$/.exec(req.path);
    if (query && req.method === 'GET') return this.query(query[1], base);
    const cancel = /^\/ent\/v2\/tasks\/([^/]+)\/cancel$/.exec(req.path);
    if (cancel && req.method === 'POST') return this.cancel(cancel[1], req);
    return fail(404, 'NotFound');
  }

  /** The task's id and state now (no query counted), as Vidu's callback carries them. */
  private async callbackBody(id: string): Promise<unknown> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    return { id, state: typeof step === 'string' ? step : 'failed', credits: record.data.credits };
  }

  private async create(endpoint: string, req: EmulatorRequest): Promise<EmulatorReply> {
    if (!ENDPOINTS.includes(endpoint)) return fail(404, 'NotFound');
    const failure = this.takeSubmitFailure();
    if (failure) return fail(failure.status, failure.reason, failure.headers);
    const body = jsonFieldsOf(req);
    const refused = checkCreate(endpoint as ViduEndpoint, body);
    if (refused) return fail(400, refused);
    const prompt = textOrEmpty(body.prompt);
    if (prompt.includes('[simulate:reject]')) return fail(400, 'AuditSubmitIllegal');
    if (prompt.includes('[simulate:credits]')) return fail(400, 'CreditInsufficient');
    if (prompt.includes('[simulate:busy]')) return fail(429, 'QuotaExceeded', { 'Retry-After': '5' });
    await this.forgetOld(TASK);
    const duration = body.duration as number;
    const task: EmulatedTask = {
      model: body.model as string,
      endpoint: endpoint as ViduEndpoint,
      duration,
      asked: askedOf(body),
      // The emulator's own tariff: 1 credit a second at 540p and 720p, 2 at 1080p.
      credits: duration * (body.resolution === '1080p' ? 2 : 1),
      failure: markedEnd(prompt, { moderation: 'CreationPolicyViolation', fail: 'InternalServiceFailure' }),
      cancelled: false,
      ...this.takeScript(),
    };
    // Vidu's ids are long decimal strings.
    const id = `8${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e8)).padStart(8, '0')}`;
    const record = await this.options.records.insertOrGet(TASK, id, task);
    keepInLog(this.creates, { endpoint: task.endpoint, body, request: req });
    // Vidu posts the task as the creations query shows it, signed with the API token that created it.
    if (typeof body.callback_url === 'string')
      this.callbacks.schedule(
        body.callback_url,
        SIMULATED_DONE_MS,
        async () => this.callbackBody(record.key),
        signedWith(this.options.apiKey),
      );
    const { images: _images, ...echoed } = body;
    return {
      status: 200,
      json: {
        ...echoed,
        task_id: record.key,
        state: 'created',
        payload: body.payload ?? '',
        off_peak: false,
        credits: task.credits,
        created_at: new Date(record.createdAt).toISOString(),
      },
    };
  }

  /** The task as the creations query shows it; a scripted task moves one step per query. */
  private async query(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return fail(404, 'TaskNotFound');
    const task = record.data;
    const step: ViduStep = task.cancelled
      ? { failed: 'UserCancelled' }
      : await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt));
    const answer: ViduTask = {
      id,
      state: typeof step === 'string' ? step : 'failed',
      err_code: typeof step === 'string' ? '' : step.failed,
      credits: task.credits,
      payload: '',
      bgm: false,
      off_peak: false,
      creations: step === 'success' ? [{ id: `${id}1`, url: `${base}/cdn/${id}.mp4`, cover_url: `${base}/cdn/${id}.jpg` }] : [],
    } as ViduTask;
    return { status: 200, json: answer };
  }

  /** Vidu stops a task it has not started; after that, a 400 BadRequest saying the state. */
  private async cancel(id: string, req: EmulatorRequest): Promise<EmulatorReply> {
    keepInLog(this.cancels, req);
    const { records } = this.options;
    const record = await records.find<EmulatedTask>(TASK, id);
    if (!record) return fail(404, 'TaskNotFound');
    const sentId = (req.json as { id?: unknown } | undefined)?.id;
    if (sentId !== undefined && sentId !== id) return fail(400, 'FieldInvalid');
    const step = this.currentStep(record.data, record.createdAt);
    if (record.data.cancelled || (step !== 'created' && step !== 'queueing')) {
      const state = record.data.cancelled || typeof step !== 'string' ? 'failed' : step;
      return {
        status: 400,
        json: { code: 400, reason: 'BadRequest', message: `task state is ${state}, can not cancel`, metadata: { trace_id: randomUUID() } },
      };
    }
    await records.update(TASK, id, { ...record.data, cancelled: true });
    return { status: 200, json: {} };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): ViduStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_QUEUED_MS / 2) return 'created';
    if (elapsed < SIMULATED_QUEUED_MS) return 'queueing';
    if (elapsed < SIMULATED_DONE_MS) return 'processing';
    return task.failure ? { failed: task.failure } : 'success';
  }

  /** Where the task is now, without counting a query: what a cancel and the CDN decide on. */
  private currentStep(task: EmulatedTask, createdAt: number): ViduStep {
    if (task.cancelled) return { failed: 'UserCancelled' };
    return stepNow(task, () => this.stepByClock(task, createdAt));
  }

  /** The "CDN" video (and its cover): no key needed; there only once the task succeeded. */
  private async video(id: string, kind: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || this.currentStep(record.data, record.createdAt) !== 'success') return { status: 404, text: 'not found' };
    if (kind === 'jpg') return { status: 404, text: 'no cover in the simulator' };
    return this.videoReply(record.data.asked ?? {});
  }
}

/** The `reason` a create is refused with, or null: the model on its endpoint, the images, the length, the fields each model takes. */
function checkCreate(endpoint: ViduEndpoint, body: Record<string, unknown>): string | null {
  const model = typeof body.model === 'string' ? SERVED[body.model] : undefined;
  if (!model || !model.endpoints.includes(endpoint)) return 'FieldInvalid';
  const images = body.images;
  const wanted = endpoint === 'text2video' ? 0 : endpoint === 'img2video' ? 1 : 2;
  if (wanted === 0 && images !== undefined) return 'FieldUnwanted';
  if (wanted > 0 && (!Array.isArray(images) || images.length !== wanted)) return 'FieldItemCountOutOfRange';
  if (wanted > 0 && !(images as unknown[]).every((image) => typeof image === 'string' && IMAGE.test(image))) return 'ImageFormatInvalid';
  if (endpoint === 'text2video' && (typeof body.prompt !== 'string' || body.prompt.trim() === '')) return 'FieldLacking';
  const max = endpoint === 'start-end2video' ? model.maxStartEndSeconds : model.maxSeconds;
  if (typeof body.duration !== 'number' || !Number.isInteger(body.duration) || body.duration < 1 || body.duration > max)
    return 'FieldInvalid';
  if (typeof body.resolution !== 'string' || !RESOLUTIONS.includes(body.resolution)) return 'FieldInvalid';
  if (body.aspect_ratio !== undefined && (endpoint !== 'text2video' || !ASPECTS.includes(String(body.aspect_ratio)))) return 'FieldInvalid';
  if (body.audio !== undefined && (!model.audio || typeof body.audio !== 'boolean')) return 'FieldUnwanted';
  if (body.bgm !== undefined && (model.audio || typeof body.bgm !== 'boolean')) return 'FieldUnwanted';
  return null;
}

/** What a create body asks of its video: `duration`, `resolution`, `aspect_ratio`, and `audio` (q3) or `bgm`; unsaid stays undefined. */
function askedOf(body: Record<string, unknown>): AskedVideo {
  return { ...askedOfUsualKeys(body), audio: askedFlag(body.audio) ?? askedFlag(body.bgm) };
}

function fail(status: number, reason: string, headers?: Record<string, string>): EmulatorReply {
  return {
    status,
    headers,
    json: { code: status, reason, message: MESSAGES[reason] ?? `${reason} (simulated)`, metadata: { trace_id: randomUUID() } },
  };
}

/** Vidu's callback headers: signed with the task's API token over the callback URL's path and query. */
function signedWith(apiToken: string): (body: string, url: string) => Record<string, string> {
  return (_body, url) => {
    const { pathname, search } = new URL(url);
    return signViduCallback(apiToken, `${pathname}${search}`, new Date().toUTCString(), randomUUID());
  };
}
