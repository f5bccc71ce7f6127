import { randomUUID } from 'node:crypto';
import { askedOfUsualKeys } from '../../simulator-shared/asked-video';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog, type LoggedCreate } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf } from '../../simulator-shared/request-fields';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import { USD_TICKS_PER_USD, XAI_ASPECT_RATIOS } from '../xai-models';
import type { XaiVideoAnswer } from '../xai-protocol';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';
import { askedFromSource, type FetchedSource, fetchSourceVideo } from '../../simulator-shared/source-video-fetch';

/**
 * A request's status in a script, one per query (the last repeats): `empty` is a 202 with no body,
 * `pending` a 202 with `{status, progress}`, `moderated` done with `respect_moderation: false`,
 * `{ failed }` carries xAI's `error.code`.
 */
export type XaiStep = 'empty' | 'pending' | 'done' | 'moderated' | 'expired' | { failed: string };

export const SIMULATED_EMPTY_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'xai.request';
const IMAGE_URL = /^(https?:\/\/\S+|data:image\/(png|jpe?g|webp);base64,[A-Za-z0-9+/]+={0,2})$/;

/**
 * The models xAI serves, with their list price per second by resolution (USD): the builtin ones, and
 * `grok-imagine-video-1.5-lite`, which an operator adds as a catalog entry. What a request costs is
 * reported in ticks (1 USD = 10^10).
 */
const SERVED: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'grok-imagine-video': { '480p': 0.05, '720p': 0.07 },
  'grok-imagine-video-1.5': { '480p': 0.08, '720p': 0.14, '1080p': 0.25 },
  'grok-imagine-video-1.5-lite': { '480p': 0.04, '720p': 0.06 },
};

interface EmulatedRequest {
  model: string;
  duration: number;
  /** What the create asked of its video; absent on older records (then the simulator's generous default). */
  asked?: AskedVideo;
  /** `usage.cost_in_usd_ticks` once it is done. */
  ticks: number;
  /** Where the request ends by the clock (prompt markers), or null for a video. */
  end: Exclude<XaiStep, 'empty' | 'pending' | 'done'> | null;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: XaiStep[];
  queries?: number;
}

/** Absent a script, requests follow the clock: an empty 202 for 2 s, pending until 6 s, then done. */
export interface XaiEmulatorOptions extends ScriptedEmulatorOptions<XaiStep> {
  /** The one key it accepts, as `Authorization: Bearer <key>`. */
  apiKey: string;
}

/** A submit failure a test queued: answered instead of the next create. */
export type XaiScriptedFailure = ScriptedFailure & { body: unknown };

/** A create the emulator accepted: its body and request. */
export type XaiCreate = LoggedCreate;

/**
 * xAI's video API (docs/upstream-protocols-aggregators.md, section 4), one emulator for the embedded
 * simulator and the tests: `Authorization: Bearer <key>` on every API call (xAI's 400 "Incorrect API
 * key provided" otherwise), `POST /v1/videos/generations` checked against the models (prompt, 1 to
 * 15 s, resolutions, aspect ratios, `image.url`), `/v1/videos/edits` and `/v1/videos/extensions` (the
 * source at `video.url` fetched as xAI would, and read: an edit makes its length, an extension adds 1
 * to 10 s to a source of 2 to 30 s), `GET /v1/videos/{id}` answering 202 while running
 * (first with no body, then `{status: "pending", progress}`) and 200 once done with `video.url` and
 * `usage.cost_in_usd_ticks`; no cancel (xAI has none: 404); the video at a link that needs no key.
 * Prompt markers: `[simulate:moderation]` done with `respect_moderation: false`, `[simulate:fail]`
 * failed `internal_error`, `[simulate:expire]` expired, `[simulate:reject]` a 400 naming the content
 * policy, `[simulate:busy]` a 429, `[simulate:credits]` the 429 of an empty balance. Tests also
 * script statuses and queue submit errors; it logs requests and accepted creates.
 */
export class XaiEmulator extends ScriptedEmulator<XaiStep, XaiScriptedFailure, XaiEmulatorOptions> {
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: XaiCreate[] = [];

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/xai`), for the video links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const video = fileLinkMatch(req, /^\/vidgen\/xai-video-([\w-]{1,64})\.mp4$/);
    if (video) return this.video(video[1]);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return badKey(req.headers.authorization);
    if (req.method === 'POST' && Object.hasOwn(CREATES, req.path)) return this.create(req, CREATES[req.path]);
    const query = /^\/v1\/videos\/([\w-]{1,128})$/.exec(req.path);
    if (query && req.method === 'GET') return this.query(query[1], base);
    return {
      status: 404,
      json: { code: 'Some requested entity was not found', error: `No route for ${req.method} ${req.path} (simulated)` },
    };
  }

  /** Every source video an edit or extension fetched, oldest first. */
  readonly sourceFetches: FetchedSource[] = [];

  private async create(req: EmulatorRequest, kind: CreateKind): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure);
    const body = jsonFieldsOf(req);
    const refused = checkCreate(body, kind);
    if (refused) return refused;
    let source: FetchedSource | null = null;
    if (kind !== 'generation') {
      source = await fetchSourceVideo(String((body.video as { url?: unknown }).url));
      if (!source) return invalid('video.url could not be fetched: it must be a public URL of a video (simulated)');
      this.sourceFetches.push(source);
      if (kind === 'extend' && source.seconds !== null && (source.seconds < 2 || source.seconds > 30))
        return invalid('The input video must be between 2 and 30 seconds long (simulated)');
    }
    const prompt = body.prompt as string;
    if (prompt.includes('[simulate:reject]'))
      return invalid('Generated prompt was rejected by the content policy of the moderation system at http://10.0.0.5 (simulated)');
    if (prompt.includes('[simulate:busy]'))
      return {
        status: 429,
        headers: { 'Retry-After': '5' },
        json: { code: 'Too many requests', error: 'Rate limit reached for team 42 (simulated)' },
      };
    if (prompt.includes('[simulate:credits]'))
      return {
        status: 429,
        json: {
          code: 'Some resource has been exhausted',
          error: 'Your team 42 has either used all available credits or reached its monthly spending limit. (simulated)',
        },
      };
    await this.forgetOld(TASK);
    const model = body.model as string;
    const resolution = (body.resolution as string | undefined) ?? '480p';
    // An edit follows its source; an extension adds 6 s unless told (the SDK's default).
    const duration = kind === 'edit' ? (source?.seconds ?? 8) : ((body.duration as number | undefined) ?? (kind === 'extend' ? 6 : 8));
    const request: EmulatedRequest = {
      model,
      duration,
      asked: source ? askedFromSource(source, kind === 'edit' ? source.seconds : duration) : askedOfUsualKeys(body),
      ticks: Math.round(SERVED[model][resolution] * duration * USD_TICKS_PER_USD),
      end:
        markedEnd(prompt, { moderation: 'moderated' as const, fail: { failed: 'internal_error' } }) ??
        (prompt.includes('[simulate:expire]') ? 'expired' : null),
      ...this.takeScript(),
    };
    const { key } = await this.options.records.insertOrGet(TASK, randomUUID(), request);
    keepInLog(this.creates, { body, request: req });
    return { status: 200, json: { request_id: key } };
  }

  /** The request as `GET /v1/videos/{id}` answers it; a scripted one moves one step per query. */
  private async query(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedRequest>(TASK, id);
    if (!record)
      return { status: 404, json: { code: 'Some requested entity was not found', error: `Request ${id} not found (simulated)` } };
    const request = record.data;
    const step = await stepOfQuery(this.options.records, TASK, id, request, () => this.stepByClock(request, record.createdAt));
    if (step === 'empty') return { status: 202 };
    if (step === 'pending') {
      const elapsed = this.options.now() - record.createdAt;
      const progress = request.script ? 50 : Math.min(99, Math.max(1, Math.round((elapsed / SIMULATED_DONE_MS) * 100)));
      return { status: 202, json: { status: 'pending', progress } };
    }
    const answer: XaiVideoAnswer = { model: request.model };
    if (step === 'done') {
      Object.assign(answer, {
        status: 'done',
        progress: 100,
        video: { url: `${base}/vidgen/xai-video-${id}.mp4`, duration: request.duration, respect_moderation: true },
        usage: { cost_in_usd_ticks: request.ticks },
      });
    } else if (step === 'moderated') {
      // Billed all the same (third-party reports): the usage is there, the link is not.
      Object.assign(answer, {
        status: 'done',
        progress: 100,
        video: { duration: request.duration, respect_moderation: false },
        usage: { cost_in_usd_ticks: request.ticks },
      });
    } else if (step === 'expired') {
      Object.assign(answer, { status: 'expired' });
    } else {
      Object.assign(answer, {
        status: 'failed',
        error: { code: step.failed, message: 'Video generation failed at http://10.0.0.7/worker (simulated)' },
        video: { duration: 0, respect_moderation: true },
        model: '',
      });
    }
    return { status: 200, json: answer };
  }

  private stepByClock(request: EmulatedRequest, createdAt: number): XaiStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_EMPTY_MS) return 'empty';
    if (elapsed < SIMULATED_DONE_MS) return 'pending';
    return request.end ?? 'done';
  }

  /** The "vidgen" link: no key needed; there only once the request is done (and passed moderation). */
  private video(id: string): Promise<EmulatorReply> {
    return this.finishedVideo<EmulatedRequest>(
      TASK,
      id,
      (request, createdAt) => stepNow(request, () => this.stepByClock(request, createdAt)) === 'done',
    );
  }
}

/** What each create path makes: a generation, an edit (`video.url`, no duration) or an extension (`video.url`, 1 to 10 s). */
type CreateKind = 'generation' | 'edit' | 'extend';
const CREATES: Readonly<Record<string, CreateKind>> = {
  '/v1/videos/generations': 'generation',
  '/v1/videos/edits': 'edit',
  '/v1/videos/extensions': 'extend',
};

/** An edit's or an extension's own fields: `video.url`, and what they do not take (xAI's refusals, UNCONFIRMED wording). */
function checkSourceCreate(body: Record<string, unknown>, kind: CreateKind): EmulatorReply | null {
  if (kind === 'generation')
    return body.video === undefined ? null : invalid('video is taken by /v1/videos/edits and /extensions (simulated)');
  if (typeof (body.video as { url?: unknown } | undefined)?.url !== 'string')
    return {
      status: 422,
      json: {
        code: 'Client specified an invalid argument',
        error: 'Failed to deserialize the JSON body: missing field `video` (simulated)',
      },
    };
  const refused = ['image', 'aspect_ratio', 'resolution', ...(kind === 'edit' ? ['duration'] : [])].find((key) => body[key] !== undefined);
  if (refused) return invalid(`${refused} is not supported by video ${kind === 'edit' ? 'edits' : 'extensions'} (simulated)`);
  if (kind === 'extend' && body.duration !== undefined && (typeof body.duration !== 'number' || body.duration < 1 || body.duration > 10))
    return invalid('duration must be between 1 and 10 seconds for an extension (simulated)');
  return null;
}

/** A create's refusal, as xAI words it (422 for a missing field, 400 for a bad value), or null. */
function checkCreate(body: Record<string, unknown>, kind: CreateKind): EmulatorReply | null {
  if (typeof body.prompt !== 'string' || body.prompt.trim() === '')
    return {
      status: 422,
      json: {
        code: 'Client specified an invalid argument',
        error: 'Failed to deserialize the JSON body: missing field `prompt` (simulated)',
      },
    };
  const prices = typeof body.model === 'string' ? SERVED[body.model] : undefined;
  if (!prices) return invalid(`The model ${String(body.model)} does not exist or your team does not have access to it. (simulated)`);
  if (
    body.duration !== undefined &&
    (typeof body.duration !== 'number' || !Number.isInteger(body.duration) || body.duration < 1 || body.duration > 15)
  )
    return invalid('duration must be between 1 and 15 seconds (simulated)');
  if (body.resolution !== undefined && !Object.hasOwn(prices, String(body.resolution)))
    return invalid(`resolution ${String(body.resolution)} is not supported by ${String(body.model)} (simulated)`);
  if (body.aspect_ratio !== undefined && !XAI_ASPECT_RATIOS.includes(String(body.aspect_ratio)))
    return invalid('invalid aspect_ratio (simulated)');
  const image = body.image as { url?: unknown } | undefined;
  if (image !== undefined && (typeof image?.url !== 'string' || !IMAGE_URL.test(image.url)))
    return invalid('image.url must be a URL or a data URI (simulated)');
  if (body.generate_audio !== undefined && typeof body.generate_audio !== 'boolean')
    return invalid('generate_audio must be a boolean (simulated)');
  return checkSourceCreate(body, kind);
}

function invalid(error: string): EmulatorReply {
  return { status: 400, json: { code: 'Client specified an invalid argument', error } };
}

/** xAI's answer to a wrong or missing key: a 400, the key masked. */
function badKey(authorization: string | string[] | undefined): EmulatorReply {
  const key = typeof authorization === 'string' ? authorization.replace(/^Bearer\s+/i, '') : '';
  const masked = key.length > 4 ? `${key.slice(0, 2)}***${key.slice(-2)}` : '***';
  return invalid(`Incorrect API key provided: ${masked}. You can obtain an API key from https://console.x.ai.`);
}
