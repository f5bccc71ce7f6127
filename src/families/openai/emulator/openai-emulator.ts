import { randomBytes } from 'node:crypto';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import type { SimulatorRecord } from '../../simulator-shared/simulator-records.service';
import type { OpenAiVideo } from '../openai-protocol';
import { stepNow, stepOfQuery } from '../../shared/emulator-steps';

/** A video's status in a script, one per query (the last repeats): a status, a failure, or any `{ body }` answered as it is. */
export type OpenAiStep = 'queued' | 'in_progress' | 'completed' | { status: 'failed'; code?: string; message?: string } | { body: unknown };

/** A step the emulator renders itself. */
type OpenAiState = Exclude<OpenAiStep, { body: unknown }>;

/** A submit failure a test queued: answered instead of the next create. */
export type OpenAiScriptedFailure = ScriptedFailure;

/** What a server accepts at submit; each list as OpenAI's Videos API has it for sora-2 and sora-2-pro. */
export interface OpenAiSubmitRules {
  models: readonly string[];
  seconds: readonly string[];
  sizes: readonly string[];
}

export const SORA_RULES: OpenAiSubmitRules = {
  models: ['sora-2', 'sora-2-pro'],
  seconds: ['4', '8', '12'],
  sizes: ['720x1280', '1280x720', '1024x1792', '1792x1024'],
};

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const VIDEO = 'openai.video';
/** A scripted video's progress while in progress (a clock-driven one's grows with the time). */
const SCRIPTED_PROGRESS = 40;

interface EmulatedVideoTask {
  model: string;
  seconds: string;
  size: string;
  /** The create's own `seconds` and `size` (absent on older records); those above fill in the defaults. */
  asked?: { seconds?: string; size?: string };
  /** The error code a video ends failed with by the clock (prompt markers), or null. */
  failure: string | null;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: OpenAiStep[];
  queries?: number;
}

/** Absent a script, videos follow the clock: queued 2 s, in progress until 6 s, then done. */
export interface OpenAiEmulatorOptions extends ScriptedEmulatorOptions<OpenAiStep> {
  apiKey: string;
  /** What it accepts at submit (the simulator: SORA_RULES); absent, any model, seconds and size, as a compatible server whose models the operator lists. */
  rules?: OpenAiSubmitRules;
}

/**
 * An OpenAI-compatible Videos API (docs/upstream-protocols.md, Family O), one emulator for the
 * embedded simulator and the tests: Bearer key on every call (401 `invalid_api_key`), `POST /videos`
 * as JSON or a multipart form (its fields checked against the rules it was given), `GET /videos/{id}`,
 * `GET /videos` (newest first), `GET /models` and `GET /videos/{id}/content` (the bytes once completed, else 400).
 * Prompt markers: `[simulate:reject]` a 400 `moderation_blocked`, `[simulate:busy]` a 429 with
 * `Retry-After` at submit; `[simulate:fail]` failed `video_generation_failed`, `[simulate:moderation]`
 * failed `moderation_blocked`. Tests also script statuses and queue submit failures.
 */
export class OpenAiEmulator extends ScriptedEmulator<OpenAiStep, OpenAiScriptedFailure, OpenAiEmulatorOptions> {
  /** Answers one request; paths are below the API's base (`/videos/abc`, the base ending in `/v1` or `/simulator/openai`). */
  async handle(req: EmulatorRequest): Promise<EmulatorReply> {
    this.logRequest(req);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`)
      return fail(401, 'invalid_api_key', null, 'Incorrect API key provided.');
    if (req.method === 'POST' && req.path === '/videos') return this.create(req);
    if (req.method === 'GET' && req.path === '/videos') return this.list(req.query.get('limit'));
    if (req.method === 'GET' && req.path === '/models') return this.models();
    const content = fileLinkMatch(req, /^\/videos\/([^/]+)\/content$/);
    if (content) return this.content(content[1], req.query.get('variant') ?? 'video');
    const one = /^\/videos\/([^/]+)$/.exec(req.path);
    if (one && req.method === 'GET') return this.get(one[1]);
    return fail(404, null, null, 'no such route');
  }

  /** `GET /models`: the models its rules take (a server without rules lists the two Sora models as OpenAI did). */
  private models(): EmulatorReply {
    const ids = this.options.rules?.models ?? SORA_RULES.models;
    return {
      status: 200,
      json: { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1759708800, owned_by: 'system' })) },
    };
  }

  private async create(req: EmulatorRequest): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure)
      return scriptedFailureReply(failure, {
        error: { message: 'failure at http://10.0.0.1/internal', type: 'server_error', param: null, code: null },
      });
    const fields = (req.form?.fields ?? (typeof req.json === 'object' && req.json !== null ? req.json : {})) as Record<string, unknown>;
    const { model, prompt } = fields;
    const seconds = String(fields.seconds ?? '4');
    const size = String(fields.size ?? '720x1280');
    const rules = this.options.rules;
    if (typeof model !== 'string' || model === '' || (rules && !rules.models.includes(model)))
      return fail(400, 'invalid_value', 'model', 'Invalid model.');
    if (typeof prompt !== 'string' || prompt.trim() === '') return fail(400, 'invalid_value', 'prompt', 'Missing prompt.');
    if (rules && !rules.seconds.includes(seconds))
      return fail(400, 'invalid_value', 'seconds', `Invalid seconds: must be one of ${rules.seconds.join(', ')}.`);
    if (rules && !rules.sizes.includes(size)) return fail(400, 'invalid_value', 'size', 'Invalid size.');
    if (prompt.includes('[simulate:reject]'))
      return fail(400, 'moderation_blocked', null, 'Your request was blocked by our moderation system. (simulated)');
    if (prompt.includes('[simulate:busy]'))
      return { ...fail(429, 'rate_limit_exceeded', null, 'Too many concurrent requests. (simulated)'), headers: { 'Retry-After': '5' } };
    await this.forgetOld(VIDEO);
    const video: EmulatedVideoTask = {
      model,
      seconds,
      size,
      asked: { seconds: fields.seconds === undefined ? undefined : seconds, size: fields.size === undefined ? undefined : size },
      failure: markedEnd(prompt, { moderation: 'moderation_blocked', fail: 'video_generation_failed' }),
      ...this.takeScript(),
    };
    const record = await this.options.records.insertOrGet(VIDEO, `video_${randomBytes(12).toString('hex')}`, video);
    return { status: 200, json: this.render(record, video.script ? 'queued' : this.stepByClock(record)) };
  }

  /** The video as `GET /videos/{id}` answers it; a scripted one moves one step per query. */
  private async get(id: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedVideoTask>(VIDEO, id);
    if (!record) return fail(404, null, null, `Video with id '${id}' not found.`);
    const step = await stepOfQuery(this.options.records, VIDEO, record.key, record.data, () => this.stepByClock(record));
    if (typeof step === 'object' && 'body' in step) return { status: 200, json: step.body };
    return { status: 200, json: this.render(record, step) };
  }

  private async list(limit: string | null): Promise<EmulatorReply> {
    const records = await this.options.records.list<EmulatedVideoTask>(VIDEO, { limit: Math.max(1, Math.min(100, Number(limit) || 20)) });
    const data = records.map((record) => {
      const step = this.currentStep(record);
      return this.render(record, typeof step === 'object' && 'body' in step ? 'in_progress' : step);
    });
    return {
      status: 200,
      json: { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false },
    };
  }

  private async content(id: string, variant: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedVideoTask>(VIDEO, id);
    if (!record) return fail(404, null, null, `Video with id '${id}' not found.`);
    if (variant !== 'video') return fail(404, null, 'variant', 'No such variant.');
    if (this.currentStep(record) !== 'completed') return fail(400, 'invalid_request', null, 'Video is not ready yet.');
    return this.videoReply(askedOf(record.data));
  }

  private stepByClock({ data, createdAt }: SimulatorRecord<EmulatedVideoTask>): OpenAiState {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_QUEUED_MS) return 'queued';
    if (elapsed < SIMULATED_DONE_MS) return 'in_progress';
    return data.failure ? { status: 'failed', code: data.failure } : 'completed';
  }

  /** Where the video is now, without counting a query: what the list and the content decide on. */
  private currentStep(record: SimulatorRecord<EmulatedVideoTask>): OpenAiStep {
    return stepNow(record.data, () => this.stepByClock(record));
  }

  private render(record: SimulatorRecord<EmulatedVideoTask>, step: OpenAiState): OpenAiVideo {
    const { key, data: video, createdAt } = record;
    const base = {
      id: key,
      object: 'video',
      model: video.model,
      created_at: Math.floor(createdAt / 1000),
      seconds: video.seconds,
      size: video.size,
    };
    const completedAt = Math.floor((video.script ? this.options.now() : createdAt + SIMULATED_DONE_MS) / 1000);
    if (step === 'queued') return { ...base, status: 'queued', progress: 0 };
    if (step === 'in_progress')
      return { ...base, status: 'in_progress', progress: video.script ? SCRIPTED_PROGRESS : this.progressByClock(createdAt) };
    if (step === 'completed')
      // Like a real provider: the size asked for (the clip served is always the same).
      return { ...base, status: 'completed', progress: 100, completed_at: completedAt };
    return {
      ...base,
      status: 'failed',
      progress: 100,
      completed_at: completedAt,
      error: { code: step.code ?? 'video_generation_failed', message: step.message ?? 'The video could not be generated. (simulated)' },
    };
  }

  private progressByClock(createdAt: number): number {
    const elapsed = this.options.now() - createdAt;
    return Math.round(((elapsed - SIMULATED_QUEUED_MS) / (SIMULATED_DONE_MS - SIMULATED_QUEUED_MS)) * 99);
  }
}

/** The shape a video's create asked: its seconds (`"8"`) and exact frame (`size`); the protocol has no audio switch. */
function askedOf(video: EmulatedVideoTask): AskedVideo {
  const seconds = Number(video.asked?.seconds);
  return { seconds: seconds > 0 ? seconds : undefined, size: video.asked?.size };
}

function fail(status: number, code: string | null, param: string | null, message: string): EmulatorReply {
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'invalid_request_error';
  return { status, json: { error: { message, type, param, code } } };
}
