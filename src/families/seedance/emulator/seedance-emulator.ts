import { randomBytes, randomUUID } from 'node:crypto';
import { askedFlag, askedSeconds, askedText } from '../../simulator-shared/asked-video';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog, type LoggedCreate } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf } from '../../simulator-shared/request-fields';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { stepNow, stepOfQuery } from '../../shared/emulator-steps';
import { type FetchedSource, fetchSourceVideo } from '../../simulator-shared/source-video-fetch';
import type { SeedanceTask } from '../seedance-protocol';

/** A task's state in a script: one per query (the last repeats); `{ failed }` carries Ark's `error.code`. */
export type SeedanceStep = 'queued' | 'running' | 'succeeded' | 'expired' | 'cancelled' | { failed: string };

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'seedance.task';
const TASKS_PATH = '/api/v3/contents/generations/tasks';
/** Ark keeps task records for 7 days; a video link works for 24 hours. */
const RECORDS_KEPT_MS = 7 * 24 * 3_600_000;
const LINK_VALID_MS = 24 * 3_600_000;
const DEFAULT_EXPIRES_AFTER_S = 172_800;
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
/** Pixels of a 16:9 frame at each resolution: what the token count is made of (x 24 fps / 1024). */
const PIXELS: Readonly<Record<string, number>> = { '480p': 864 * 480, '720p': 1280 * 720, '1080p': 1920 * 1080 };
const MEDIA = /^(https?:\/\/\S+|data:(image|audio|video)\/[\w.+-]+;base64,[A-Za-z0-9+/]+={0,2}|asset:\/\/\S+)$/;

/** What one model takes: lengths, resolutions, references, audio, and whether it refuses an explicit ratio with frames. */
interface ServedModel {
  seconds: [number, number];
  resolutions: readonly string[];
  references: boolean;
  audio: boolean;
  adaptiveFrames: boolean;
}
const V2 = { seconds: [4, 15], references: true, audio: true, adaptiveFrames: true } as const;
const V15 = { seconds: [4, 12], resolutions: ['480p', '720p', '1080p'], references: false, audio: true, adaptiveFrames: false } as const;
const V10 = { seconds: [2, 12], resolutions: ['480p', '720p', '1080p'], references: false, audio: false, adaptiveFrames: false } as const;
/** The models Ark serves (upstream-protocols-wires.md 1.7), by BytePlus's ids and Volcengine's `doubao-` ones. */
const SERVED: Readonly<Record<string, ServedModel>> = {
  'dreamina-seedance-2-0-260128': { ...V2, seconds: [4, 15], resolutions: ['480p', '720p'] },
  'doubao-seedance-2-0-260128': { ...V2, seconds: [4, 15], resolutions: ['480p', '720p', '1080p'] },
  'dreamina-seedance-2-0-fast-260128': { ...V2, seconds: [4, 15], resolutions: ['480p', '720p'] },
  'doubao-seedance-2-0-fast-260128': { ...V2, seconds: [4, 15], resolutions: ['480p', '720p'] },
  'seedance-1-5-pro-251215': { ...V15, seconds: [4, 12] },
  'doubao-seedance-1-5-pro-251215': { ...V15, seconds: [4, 12] },
  'seedance-1-0-pro-250528': { ...V10, seconds: [2, 12] },
  'doubao-seedance-1-0-pro-250528': { ...V10, seconds: [2, 12] },
};

/** Ark's words for its codes (the type column of its tables); the ones a test injects carry text the gateway must never pass on. */
const ERRORS: Readonly<Record<string, { type: string; message: string }>> = {
  AuthenticationError: { type: 'Unauthorized', message: 'The API key in the request is missing or invalid (simulated).' },
  InvalidParameter: {
    type: 'BadRequest',
    message: 'A parameter specified in the request is not valid at http://10.0.0.9/ark (simulated).',
  },
  MissingParameter: { type: 'BadRequest', message: 'The request failed because it is missing a parameter (simulated).' },
  InputTextSensitiveContentDetected: {
    type: 'BadRequest',
    message: 'The request failed because the input text may contain sensitive information at http://10.0.0.5/audit (simulated).',
  },
  AccountOverdueError: { type: 'Forbidden', message: 'The account 42 is overdue (simulated).' },
  RateLimitExceeded: { type: 'TooManyRequests', message: 'The request has exceeded the rate limit (simulated).' },
  ResourceNotFound: { type: 'NotFound', message: 'The specified task is not found (simulated).' },
  OperationDenied: { type: 'BadRequest', message: 'The task cannot be cancelled in its current state (simulated).' },
  InternalServiceError: {
    type: 'InternalServerError',
    message: 'The service encountered an unexpected internal error at http://10.0.0.7/worker (simulated).',
  },
};

interface EmulatedTask {
  model: string;
  duration: number;
  resolution: string;
  ratio: string;
  seed: number;
  generateAudio: boolean;
  expiresAfterS: number;
  asked: AskedVideo;
  /** `error.code` of a task that ends failed (prompt markers), `expired`, or null. */
  failure: string | null;
  cancelled: boolean;
  script?: SeedanceStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: queued 2 s, running until 6 s, then done. */
export interface SeedanceEmulatorOptions extends ScriptedEmulatorOptions<SeedanceStep> {
  /** The one key it accepts, as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/** A submit failure a test queued: Ark's error body with this `code`, answered instead of the next create. */
export interface SeedanceScriptedFailure {
  status: number;
  code: string;
  headers?: Record<string, string>;
}

export type SeedanceCreate = LoggedCreate;

/**
 * Ark's video generation API (upstream-protocols-wires.md, section 1, what 1.10 asks of an emulator),
 * one emulator for the embedded simulator and the tests, on BytePlus's and Volcengine's model ids:
 * `Authorization: Bearer <key>` on every API call (401 AuthenticationError otherwise); creates checked
 * (one text, one first and one last frame, frames never mixed with references, audio only beside an
 * image or a video, lengths, resolutions, ratios, no explicit ratio with frames on 2.0), `--flags` in
 * the text read too (fields win), answered `{id}` only; queries with `usage` once succeeded; list with
 * `filter.*`; DELETE (a queued task cancelled, a running one refused, a finished one deleted); the
 * task's JSON posted to `callback_url` on each change; the video at a signed-looking link that works
 * for 24 hours. Prompt markers: `[simulate:reject]` 400 InputTextSensitiveContentDetected,
 * `[simulate:busy]` 429 RateLimitExceeded, `[simulate:credits]` 403 AccountOverdueError,
 * `[simulate:moderation]` a task failed with OutputVideoSensitiveContentDetected, `[simulate:fail]`
 * one failed with InternalServiceError, `[simulate:expire]` one that expires. A `reference_video` link
 * (an edit's or extension's source) is fetched and its length checked, as Ark would.
 */
export class SeedanceEmulator extends ScriptedEmulator<SeedanceStep, SeedanceScriptedFailure, SeedanceEmulatorOptions> {
  readonly creates: SeedanceCreate[] = [];
  readonly cancels: EmulatorRequest[] = [];
  /** Every reference video (an edit's or extension's source) a create fetched, oldest first. */
  readonly sourceFetches: FetchedSource[] = [];

  constructor(options: SeedanceEmulatorOptions) {
    super(options, RECORDS_KEPT_MS);
  }

  /** Answers one request; `base` is where this emulator is mounted, for the video links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const file = fileLinkMatch(req, /^\/tos\/([\w-]{1,64})\.mp4$/);
    if (file) return this.video(file[1], req.query);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return fail(401, 'AuthenticationError');
    if (req.path === TASKS_PATH && req.method === 'POST') return this.create(req, base);
    if (req.path === TASKS_PATH && req.method === 'GET') return this.list(req.query, base);
    const one = req.path.startsWith(`${TASKS_PATH}/`) ? req.path.slice(TASKS_PATH.length + 1) : undefined;
    if (one && !one.includes('/') && req.method === 'GET') return this.query(one, base);
    if (one && !one.includes('/') && req.method === 'DELETE') return this.remove(one, req);
    // A path Ark does not serve: its gateway's bare 404, not an API error.
    return { status: 404, text: '404 page not found' };
  }

  private async create(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return fail(failure.status, failure.code, failure.headers);
    const body = jsonFieldsOf(req);
    const checked = checkCreate(body);
    if (typeof checked === 'string') return fail(400, checked);
    const videos = await this.fetchedVideos(body.content as ContentItem[]);
    if (typeof videos === 'string') return fail(400, videos);
    const { prompt } = checked;
    if (prompt.includes('[simulate:reject]')) return fail(400, 'InputTextSensitiveContentDetected');
    if (prompt.includes('[simulate:credits]')) return fail(403, 'AccountOverdueError');
    if (prompt.includes('[simulate:busy]')) return fail(429, 'RateLimitExceeded', { 'Retry-After': '5' });
    await this.forgetOld(TASK);
    const task: EmulatedTask = {
      ...checked.task,
      failure: prompt.includes('[simulate:expire]')
        ? 'expired'
        : markedEnd(prompt, { moderation: 'OutputVideoSensitiveContentDetected', fail: 'InternalServiceError' }),
      cancelled: false,
      ...this.takeScript(),
    };
    const stamp = new Date(this.options.now()).toISOString().replace(/\D/g, '').slice(0, 14);
    const record = await this.options.records.insertOrGet(TASK, `cgt-${stamp}-${randomBytes(3).toString('hex').slice(0, 5)}`, task);
    keepInLog(this.creates, { body, request: req });
    // Ark posts the task's JSON on each change of its status: running (by the clock only: a test's callback is the end), then its end.
    const callbackUrl = body.callback_url;
    if (typeof callbackUrl === 'string')
      for (const at of this.callbacks.delayMs === null ? [SIMULATED_QUEUED_MS, SIMULATED_DONE_MS] : [SIMULATED_DONE_MS])
        this.callbacks.schedule(callbackUrl, at, async () => {
          const current = await this.options.records.find<EmulatedTask>(TASK, record.key);
          if (!current) return null;
          return this.answer(record.key, current.data, current.createdAt, this.currentStep(current.data, current.createdAt), base);
        });
    return { status: 200, json: { id: record.key } };
  }

  /**
   * The reference videos (http(s) links), fetched as Ark would, no key: each 2 to 15 s and 15 s in all
   * when their length reads (upstream-protocols-wires.md 1.2); one that cannot be fetched is a 400.
   */
  private async fetchedVideos(content: ContentItem[]): Promise<FetchedSource[] | string> {
    const fetched: FetchedSource[] = [];
    for (const item of content.filter((one) => one?.type === 'video_url')) {
      const url = String(item.video_url?.url);
      if (!/^https?:\/\//i.test(url)) continue;
      const source = await fetchSourceVideo(url);
      if (!source) return 'InvalidParameter';
      this.sourceFetches.push(source);
      fetched.push(source);
    }
    const lengths = fetched.map((source) => source.seconds).filter((seconds): seconds is number => seconds !== null);
    if (lengths.some((seconds) => seconds < 2 || seconds > 15) || lengths.reduce((sum, seconds) => sum + seconds, 0) > 15)
      return 'InvalidParameter';
    return fetched;
  }

  private async query(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return fail(404, 'ResourceNotFound');
    const task = record.data;
    const step = task.cancelled
      ? 'cancelled'
      : await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt));
    return { status: 200, json: this.answer(id, task, record.createdAt, step, base) };
  }

  /** `GET .../tasks?page_num&page_size&filter.status&filter.task_ids&filter.model`: the tasks of the last 7 days, newest first. */
  private async list(query: URLSearchParams, base: string): Promise<EmulatorReply> {
    const pageNum = Number(query.get('page_num') ?? 1);
    const pageSize = Number(query.get('page_size') ?? 10);
    if (![pageNum, pageSize].every((n) => Number.isInteger(n) && n >= 1 && n <= 500)) return fail(400, 'InvalidParameter');
    const ids = query.getAll('filter.task_ids');
    const items = (await this.options.records.list<EmulatedTask>(TASK))
      .map((record) => this.answer(record.key, record.data, record.createdAt, this.currentStep(record.data, record.createdAt), base))
      .filter((task) => ids.length === 0 || ids.includes(String(task.id)))
      .filter((task) => !query.has('filter.status') || task.status === query.get('filter.status'))
      .filter((task) => !query.has('filter.model') || task.model === query.get('filter.model'));
    return { status: 200, json: { total: items.length, items: items.slice((pageNum - 1) * pageSize, pageNum * pageSize) } };
  }

  /** DELETE: a queued task is cancelled; a running or cancelled one refused; a finished one's record deleted. */
  private async remove(id: string, req: EmulatorRequest): Promise<EmulatorReply> {
    keepInLog(this.cancels, req);
    const { records } = this.options;
    const record = await records.find<EmulatedTask>(TASK, id);
    if (!record) return fail(404, 'ResourceNotFound');
    const step = this.currentStep(record.data, record.createdAt);
    if (step === 'running' || step === 'cancelled') return fail(400, 'OperationDenied');
    if (step === 'queued') await records.update(TASK, id, { ...record.data, cancelled: true });
    else await records.remove(TASK, id);
    return { status: 200, json: {} };
  }

  /** The task as Ark's query shows it at `step`: `usage` and the video once succeeded, `error` once failed. */
  private answer(
    id: string,
    task: EmulatedTask,
    createdAt: number,
    step: SeedanceStep,
    base: string,
  ): SeedanceTask & Record<string, unknown> {
    const status = typeof step === 'string' ? step : 'failed';
    const created = Math.floor(createdAt / 1000);
    const doneAt = createdAt + SIMULATED_DONE_MS;
    return {
      id,
      model: task.model,
      status,
      error:
        typeof step === 'string'
          ? null
          : { code: step.failed, message: `${ERRORS[step.failed]?.message ?? 'The task failed (simulated).'} Request ID: ${randomUUID()}` },
      ...(step === 'succeeded'
        ? {
            content: {
              video_url: `${base}/tos/${id}.mp4?X-Tos-Expires=${doneAt + LINK_VALID_MS}&X-Tos-Signature=${randomBytes(16).toString('hex')}`,
            },
            usage: { completion_tokens: tokensOf(task), total_tokens: tokensOf(task) },
          }
        : {}),
      created_at: created,
      updated_at: status === 'queued' ? created : created + (status === 'running' ? 2 : 6),
      seed: task.seed,
      resolution: task.resolution,
      ratio: task.ratio,
      duration: task.duration,
      framespersecond: 24,
      generate_audio: task.generateAudio,
      service_tier: 'default',
      execution_expires_after: task.expiresAfterS,
      draft: false,
    };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): SeedanceStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed >= task.expiresAfterS * 1000) return 'expired';
    if (elapsed < SIMULATED_QUEUED_MS) return 'queued';
    if (elapsed < SIMULATED_DONE_MS) return 'running';
    if (task.failure === 'expired') return 'expired';
    return task.failure ? { failed: task.failure } : 'succeeded';
  }

  /** Where the task is now, without counting a query: what a cancel, a list, a callback and the download decide on. */
  private currentStep(task: EmulatedTask, createdAt: number): SeedanceStep {
    if (task.cancelled) return 'cancelled';
    return stepNow(task, () => this.stepByClock(task, createdAt));
  }

  /** The video behind a link: no key, there once the task succeeded, until the link's expiry. */
  private async video(id: string, query: URLSearchParams): Promise<EmulatorReply> {
    const expires = Number(query.get('X-Tos-Expires'));
    if (!Number.isFinite(expires) || this.options.now() > expires) return { status: 403, text: 'AccessDenied: Request has expired' };
    return this.finishedVideo<EmulatedTask>(TASK, id, (task, createdAt) => this.currentStep(task, createdAt) === 'succeeded');
  }
}

/** Tokens of a video: width x height x 24 fps x seconds / 1024. */
function tokensOf(task: EmulatedTask): number {
  return Math.round(((PIXELS[task.resolution] ?? PIXELS['720p']) * 24 * task.duration) / 1024);
}

/** The `--flags` appended to a text (`--rs 720p --rt 16:9 --dur 5 --seed 1`): the fields they stand for. */
function textFlags(text: string): Record<string, string> {
  const names: Record<string, string> = {
    rs: 'resolution',
    resolution: 'resolution',
    rt: 'ratio',
    ratio: 'ratio',
    dur: 'duration',
    duration: 'duration',
    seed: 'seed',
  };
  const flags: Record<string, string> = {};
  for (const [, flag, value] of text.matchAll(/--(\w+)\s+(\S+)/g)) if (names[flag]) flags[names[flag]] = value;
  return flags;
}

type ContentItem = {
  type?: unknown;
  text?: unknown;
  role?: unknown;
  image_url?: { url?: unknown };
  video_url?: { url?: unknown };
  audio_url?: { url?: unknown };
};

/** The code a create is refused with, or what the task is: the model, the content, then each field (fields win over `--flags`). */
function checkCreate(body: Record<string, unknown>): string | { prompt: string; task: Omit<EmulatedTask, 'failure' | 'cancelled'> } {
  if (typeof body.model !== 'string' || !Array.isArray(body.content)) return 'MissingParameter';
  const model = SERVED[body.model];
  if (!model) return 'InvalidParameter';
  const items = body.content as ContentItem[];
  const texts = items.filter((item) => item?.type === 'text');
  if (texts.length > 1 || texts.some((item) => typeof item.text !== 'string')) return 'InvalidParameter';
  const media = items.filter((item) => item?.type !== 'text');
  const roles: string[] = [];
  for (const item of media) {
    const kind =
      item?.type === 'image_url' ? 'image_url' : item?.type === 'video_url' ? 'video_url' : item?.type === 'audio_url' ? 'audio_url' : null;
    const url = kind ? item[kind]?.url : undefined;
    if (!kind || typeof url !== 'string' || !MEDIA.test(url)) return 'InvalidParameter';
    const role = item.role ?? (kind === 'image_url' && media.length === 1 ? 'first_frame' : undefined);
    const allowed = {
      image_url: ['first_frame', 'last_frame', 'reference_image'],
      video_url: ['reference_video'],
      audio_url: ['reference_audio'],
    }[kind];
    if (typeof role !== 'string' || !allowed.includes(role)) return 'InvalidParameter';
    roles.push(role);
  }
  const count = (role: string) => roles.filter((r) => r === role).length;
  const frames = count('first_frame') + count('last_frame');
  const references = roles.length - frames;
  if (count('first_frame') > 1 || count('last_frame') > 1 || (count('last_frame') === 1 && count('first_frame') === 0))
    return 'InvalidParameter';
  if (frames > 0 && references > 0) return 'InvalidParameter';
  if (references > 0 && !model.references) return 'InvalidParameter';
  if (count('reference_image') > 9 || count('reference_video') > 3 || count('reference_audio') > 3) return 'InvalidParameter';
  if (count('reference_audio') > 0 && count('reference_image') + count('reference_video') === 0) return 'InvalidParameter';
  const prompt = typeof texts[0]?.text === 'string' ? texts[0].text : '';
  if (roles.length === 0 && prompt.trim() === '') return 'MissingParameter';
  const flags = textFlags(prompt);
  const duration = body.duration ?? (flags.duration !== undefined ? Number(flags.duration) : 5);
  const [min, max] = model.seconds;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < min || duration > max) return 'InvalidParameter';
  const resolution = body.resolution ?? flags.resolution ?? '720p';
  if (typeof resolution !== 'string' || !model.resolutions.includes(resolution)) return 'InvalidParameter';
  const explicitRatio = body.ratio ?? flags.ratio;
  if (explicitRatio !== undefined && (typeof explicitRatio !== 'string' || !RATIOS.includes(explicitRatio))) return 'InvalidParameter';
  if (frames > 0 && model.adaptiveFrames && explicitRatio !== undefined && explicitRatio !== 'adaptive') return 'InvalidParameter';
  const audio = body.generate_audio;
  if (audio !== undefined && (typeof audio !== 'boolean' || (audio && !model.audio))) return 'InvalidParameter';
  const seed = body.seed ?? (flags.seed !== undefined ? Number(flags.seed) : -1);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -1 || seed > 2_147_483_647) return 'InvalidParameter';
  const expires = body.execution_expires_after ?? DEFAULT_EXPIRES_AFTER_S;
  if (typeof expires !== 'number' || !Number.isInteger(expires) || expires < 3_600 || expires > 259_200) return 'InvalidParameter';
  if (body.callback_url !== undefined && (typeof body.callback_url !== 'string' || !/^https?:\/\//.test(body.callback_url)))
    return 'InvalidParameter';
  const ratio = explicitRatio ?? (frames > 0 ? 'adaptive' : '16:9');
  const generateAudio = audio ?? model.audio;
  return {
    prompt,
    task: {
      model: body.model,
      duration,
      resolution,
      ratio,
      seed: seed === -1 ? 78_674 : seed,
      generateAudio,
      expiresAfterS: expires,
      asked: {
        seconds: askedSeconds(duration),
        resolution: askedText(resolution),
        aspectRatio: ratio === 'adaptive' ? undefined : ratio,
        audio: askedFlag(generateAudio),
      },
    },
  };
}

function fail(status: number, code: string, headers?: Record<string, string>): EmulatorReply {
  const known = ERRORS[code] ?? { type: 'BadRequest', message: `${code} (simulated).` };
  return {
    status,
    headers,
    json: { error: { code, message: `${known.message} Request ID: ${randomUUID()}`, param: '', type: known.type } },
  };
}
