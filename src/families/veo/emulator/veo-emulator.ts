import { askedSeconds, askedText } from '../../simulator-shared/asked-video';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type AskedVideo, deliveredVideo, type EmulatorReply, type EmulatorRequest } from '../../simulator-shared/emulator-http';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf, textOrEmpty } from '../../simulator-shared/request-fields';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import { VEO_MODELS } from '../veo-models';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';
import { checkOmniCreate, OMNI_RETIRED, OMNI_SERVED, omniInteractionBody } from './omni-emulated-interactions';

/**
 * An operation's (or interaction's) state in a script, one per query (the last repeats): `running`, `done`
 * (a sample), `moderation` (done, RAI-filtered; an interaction failed by safety), `cancelled` (an
 * interaction only), `{ error }` (done with that rpc code), `{ body }` (answered as it is).
 */
export type VeoStep = 'running' | 'done' | 'moderation' | 'cancelled' | { error: number } | { body: unknown };

export const SIMULATED_DONE_MS = 6_000;
/** Google keeps generated videos 2 days. */
const FORGET_AFTER_MS = 48 * 3600_000;
const OPERATION = 'veo.operation';
/**
 * The models Veo serves and their lengths: the builtin ones, and veo-3.2-generate-preview (4 to 12 s),
 * which an operator adds as a catalog entry.
 */
const SERVED_DURATIONS: Readonly<Record<string, readonly number[]>> = {
  ...Object.fromEntries(Object.entries(VEO_MODELS).map(([model, rules]) => [model, rules.durations])),
  'veo-3.2-generate-preview': Array.from({ length: 9 }, (_, index) => index + 4),
};
/** Parameters the SDK refuses for the Gemini API (Vertex AI only). */
const VERTEX_ONLY = [
  'seed',
  'generateAudio',
  'fps',
  'outputGcsUri',
  'storageUri',
  'compressionQuality',
  'resizeMode',
  'mask',
  'pubsubTopic',
  'labels',
];
const RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

/** The standard Google error envelope. */
export const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

/** Google answers a bad key with a 400 INVALID_ARGUMENT whose detail reason is API_KEY_INVALID. */
export const API_KEY_INVALID = googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
]);

interface EmulatedOperation {
  model: string;
  /** What the prompt markers made of it once done. */
  outcome: 'video' | 'moderation' | 'error';
  /** The signature of its file's storage link. */
  token: string;
  /** The request's `parameters` as sent (absent on older records). */
  parameters?: Record<string, unknown>;
  /** A test's script: the state of each query in turn; absent, the state follows the clock. */
  script?: VeoStep[];
  queries?: number;
  /** A Gemini Omni interaction (else a Veo operation), what it asked, and whether it was cancelled. */
  interaction?: boolean;
  asked?: AskedVideo;
  cancelled?: boolean;
  /** An interaction whose video is answered inline (base64 `data`), not as a Files URI (`[simulate:inline]`). */
  inline?: boolean;
}

/** Absent a script, operations follow the clock: running for 6 s, then done. */
export interface VeoEmulatorOptions extends ScriptedEmulatorOptions<VeoStep> {
  apiKey: string;
  /** Makes the id of a new operation (tests: `op<n>`); by default 12 random hex digits. */
  operationId?: () => string;
}

/** A submit failure a test queued: answered instead of the next predictLongRunning. */
export type VeoScriptedFailure = ScriptedFailure;

/**
 * Veo on the Gemini API (docs/upstream-protocols.md, Family Veo), one emulator for the embedded simulator
 * and the tests: `x-goog-api-key` (or `?key=`) on every call, the file download included (else Google's
 * 400 API_KEY_INVALID); `predictLongRunning` checked against the models (404 for another), the
 * duration and the Vertex-only parameters; operations by name; the file download a 302 to signed
 * storage (no key there) that serves the video; `GET /v1beta/models` for probes. Gemini Omni on the
 * Interactions API: `POST /v1beta/interactions` (Google's Omni ids; the shut-down preview 404; the
 * `response_format` checked) answers `in_progress`, `GET /v1beta/interactions/{id}` follows it to
 * `completed` with a Files URI (the same download) and its output tokens, `POST …/{id}/cancel` ends
 * one in progress `cancelled` (one that ended: 400 FAILED_PRECONDITION). Prompt markers:
 * `[simulate:busy]` a 429 RESOURCE_EXHAUSTED, `[simulate:moderation]` done RAI-filtered with no sample
 * (an interaction: failed by safety), `[simulate:fail]` done with error code 13 (an interaction: failed with it),
 * `[simulate:inline]` an interaction completed with its video inline (base64 `data`, no Files URI). Tests also
 * script states and queue submit errors.
 */
export class VeoEmulator extends ScriptedEmulator<VeoStep, VeoScriptedFailure, VeoEmulatorOptions> {
  constructor(options: VeoEmulatorOptions) {
    super(options, FORGET_AFTER_MS);
  }

  /**
   * Answers one request; `base` is where this emulator is mounted (`http://host/simulator/veo`), for the
   * file URIs, and `storageBase` where its signed storage is (the same by default; tests put it on another origin).
   */
  async handle(req: EmulatorRequest, base: string, storageBase = base): Promise<EmulatorReply> {
    this.logRequest(req);
    if (req.path.startsWith('/storage/')) return this.storage(req);
    if (req.headers['x-goog-api-key'] !== this.options.apiKey && req.query.get('key') !== this.options.apiKey)
      return { status: 400, json: API_KEY_INVALID };
    const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(req.path);
    if (submit && req.method === 'POST') return this.create(submit[1], req);
    if (req.path === '/v1beta/interactions' && req.method === 'POST') return this.createInteraction(req);
    const cancel = /^\/v1beta\/interactions\/([^/]+)\/cancel$/.exec(req.path);
    if (cancel && req.method === 'POST') return this.cancelInteraction(cancel[1], base);
    if (req.method !== 'GET') return notFound('no such route');
    const interaction = /^\/v1beta\/interactions\/([^/]+)$/.exec(req.path);
    if (interaction) return this.interaction(interaction[1], base);
    if (req.path === '/v1beta/models') return { status: 200, json: { models: Object.keys(SERVED_DURATIONS).map(listed) } };
    const operation = /^\/v1beta\/models\/([^/]+)\/operations\/([^/]+)$/.exec(req.path);
    if (operation) return this.operation(operation[1], operation[2], base);
    const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(req.path);
    if (file) return this.download(file[1], req.query.get('alt'), storageBase);
    return notFound('no such route');
  }

  private async create(model: string, req: EmulatorRequest): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure, googleError(failure.status, 'INTERNAL', 'Internal error at 10.0.0.1'));
    if (!Object.hasOwn(SERVED_DURATIONS, model)) return notFound(`models/${model} is not found for API version v1beta.`);
    const body = jsonFieldsOf(req);
    const instance = (Array.isArray(body.instances) ? body.instances[0] : undefined) as Record<string, unknown> | undefined;
    const parameters = (body.parameters ?? {}) as Record<string, unknown>;
    const prompt = textOrEmpty(instance?.prompt);
    if (!instance || (prompt === '' && !instance.image)) return invalid('A prompt or an image is required.');
    if (parameters.durationSeconds !== undefined && !SERVED_DURATIONS[model].includes(parameters.durationSeconds as number))
      return invalid('Unsupported durationSeconds.');
    if (VERTEX_ONLY.some((key) => key in parameters)) return invalid('A parameter is not supported in the Gemini API.');
    if (prompt.includes('[simulate:busy]'))
      return { status: 429, json: googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota). (simulated)') };
    await this.forgetOld(OPERATION);
    const operation: EmulatedOperation = {
      model,
      outcome: markedEnd(prompt, { moderation: 'moderation' as const, fail: 'error' as const }) ?? 'video',
      token: randomBytes(16).toString('hex'),
      parameters,
      ...this.takeScript(),
    };
    const id = this.options.operationId?.() ?? randomBytes(6).toString('hex');
    const { key } = await this.options.records.insertOrGet(OPERATION, id, operation);
    return { status: 200, json: { name: `models/${model}/operations/${key}` } };
  }

  /** The operation as `GET /v1beta/{name}` answers it (under another model's name: not found); a scripted one moves one step per query. */
  private async operation(model: string, id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedOperation>(OPERATION, id);
    if (!record || record.data.model !== model) return notFound('Operation not found.');
    const op = record.data;
    const step = await stepOfQuery(this.options.records, OPERATION, id, op, () => this.stepByClock(op, record.createdAt));
    const name = `models/${model}/operations/${id}`;
    if (typeof step === 'object' && 'body' in step) return { status: 200, json: step.body };
    if (typeof step === 'object')
      return {
        status: 200,
        json: { name, done: true, error: { code: step.error, message: 'Video generation failed at http://10.1.2.3/internal (simulated)' } },
      };
    if (step === 'running') return { status: 200, json: { name } };
    const generateVideoResponse =
      step === 'moderation'
        ? { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The prompt was blocked, see http://10.9.9.9 (simulated)'] }
        : { generatedSamples: [{ video: { uri: `${base}/v1beta/files/${id}:download?alt=media` } }] };
    return { status: 200, json: { name, done: true, response: { '@type': RESPONSE_TYPE, generateVideoResponse } } };
  }

  /** `POST /v1beta/interactions` (Gemini Omni): checked as Google would, answered in progress (run in the background). */
  private async createInteraction(req: EmulatorRequest): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure, googleError(failure.status, 'INTERNAL', 'Internal error at 10.0.0.1'));
    const body = jsonFieldsOf(req);
    const model = textOrEmpty(body.model);
    if (OMNI_RETIRED.includes(model)) return notFound(`models/${model} is no longer available.`);
    if (!Object.hasOwn(OMNI_SERVED, model)) return notFound(`models/${model} is not found for API version v1beta.`);
    const checked = checkOmniCreate(body);
    if (typeof checked === 'string') return invalid(checked);
    if (checked.prompt.includes('[simulate:busy]'))
      return { status: 429, json: googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota). (simulated)') };
    await this.forgetOld(OPERATION);
    const record: EmulatedOperation = {
      model,
      interaction: true,
      asked: checked.asked,
      outcome: markedEnd(checked.prompt, { moderation: 'moderation' as const, fail: 'error' as const }) ?? 'video',
      token: randomBytes(16).toString('hex'),
      ...(checked.prompt.includes('[simulate:inline]') ? { inline: true } : {}),
      ...this.takeScript(),
    };
    const id = `v1_${this.options.operationId?.() ?? randomBytes(9).toString('base64url')}`;
    const { key } = await this.options.records.insertOrGet(OPERATION, id, record);
    // Without `background` Google holds the call until the video is made: the emulator answers as it stands.
    return { status: 200, json: omniInteractionBody(key, model, 'in_progress') };
  }

  /** `GET /v1beta/interactions/{id}`: a scripted one moves one step per query, else the clock's. */
  private async interaction(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedOperation>(OPERATION, id);
    if (!record?.data.interaction) return notFound('Interaction not found.');
    const op = record.data;
    const step = op.cancelled
      ? 'cancelled'
      : await stepOfQuery(this.options.records, OPERATION, id, op, () => this.stepByClock(op, record.createdAt));
    return { status: 200, json: await this.interactionAnswer(id, op, step, base) };
  }

  /** `POST /v1beta/interactions/{id}/cancel`: an interaction in progress ends cancelled; one that ended is refused. */
  private async cancelInteraction(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedOperation>(OPERATION, id);
    if (!record?.data.interaction) return notFound('Interaction not found.');
    const op = record.data;
    const step = op.cancelled ? 'cancelled' : stepNow(op, () => this.stepByClock(op, record.createdAt));
    if (step !== 'running') return { status: 400, json: googleError(400, 'FAILED_PRECONDITION', 'The interaction is not in progress.') };
    await this.options.records.update(OPERATION, id, { ...op, cancelled: true });
    return { status: 200, json: await this.interactionAnswer(id, op, 'cancelled', base) };
  }

  private async interactionAnswer(id: string, op: EmulatedOperation, step: VeoStep, base: string): Promise<unknown> {
    if (typeof step === 'object' && 'body' in step) return step.body;
    if (typeof step === 'object') return omniInteractionBody(id, op.model, 'failed', { error: step.error });
    if (step === 'running') return omniInteractionBody(id, op.model, 'in_progress');
    if (step === 'cancelled') return omniInteractionBody(id, op.model, 'cancelled');
    if (step === 'moderation') return omniInteractionBody(id, op.model, 'failed', { safety: true });
    const seconds = op.asked?.seconds;
    if (op.inline) return omniInteractionBody(id, op.model, 'completed', { videoData: await this.inlineData(op), seconds });
    return omniInteractionBody(id, op.model, 'completed', { videoUri: `${base}/v1beta/files/${id}:download?alt=media`, seconds });
  }

  /** The video an inline interaction carries, as base64 (the same bytes its file would serve). */
  private async inlineData(op: EmulatedOperation): Promise<string> {
    const video = await deliveredVideo(this.options.video, askedOf(op));
    return ('file' in video ? await readFile(video.file) : video.bytes).toString('base64');
  }

  private stepByClock(op: EmulatedOperation, createdAt: number): VeoStep {
    if (op.cancelled) return 'cancelled';
    if (this.options.now() - createdAt < SIMULATED_DONE_MS) return 'running';
    return op.outcome === 'video' ? 'done' : op.outcome === 'moderation' ? 'moderation' : { error: 13 };
  }

  /** The operation if it is now done with a sample (without counting a query): what the file decides on. */
  private async withVideo(id: string): Promise<EmulatedOperation | null> {
    const record = await this.options.records.find<EmulatedOperation>(OPERATION, id);
    if (!record || record.data.cancelled) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    return step === 'done' ? record.data : null;
  }

  /** `files/{id}:download?alt=media` (key checked): a redirect to the file's signed storage link, which needs no key. */
  private async download(id: string, alt: string | null, storageBase: string): Promise<EmulatorReply> {
    const op = alt === 'media' ? await this.withVideo(id) : null;
    if (!op) return notFound('File not found.');
    return { status: 302, headers: { Location: `${storageBase}/storage/${id}?sig=${op.token}` } };
  }

  private async storage(req: EmulatorRequest): Promise<EmulatorReply> {
    const id = /^\/storage\/([^/]+)$/.exec(req.path)?.[1];
    const op = id && (req.method === 'GET' || req.method === 'HEAD') ? await this.withVideo(id) : null;
    if (!op || req.query.get('sig') !== op.token) return { status: 403, text: 'AccessDenied' };
    return this.videoReply(askedOf(op));
  }
}

/** The shape an operation's parameters asked: durationSeconds, resolution, aspectRatio (generateAudio is Vertex-only, refused here). */
function askedOf(op: EmulatedOperation): AskedVideo {
  if (op.asked) return op.asked;
  const { durationSeconds, resolution, aspectRatio } = op.parameters ?? {};
  return { seconds: askedSeconds(durationSeconds), resolution: askedText(resolution), aspectRatio: askedText(aspectRatio) };
}

const listed = (model: string) => ({ name: `models/${model}`, supportedGenerationMethods: ['predictLongRunning'] });
const notFound = (message: string): EmulatorReply => ({ status: 404, json: googleError(404, 'NOT_FOUND', message) });
const invalid = (message: string): EmulatorReply => ({ status: 400, json: googleError(400, 'INVALID_ARGUMENT', message) });
