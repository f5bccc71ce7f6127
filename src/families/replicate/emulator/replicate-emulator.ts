import { schemaOfFields } from '../../shared/endpoint-schema';
import { randomBytes, randomUUID } from 'node:crypto';
import { signReplicateWebhook } from '../replicate-webhook-signature';
import { askedOfUsualKeys } from '../../simulator-shared/asked-video';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { textOrEmpty } from '../../simulator-shared/request-fields';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import { REPLICATE_OUTPUT_LIFETIME_MS } from '../replicate-protocol';
import { stepNow } from '../../shared/emulator-steps';

/** A prediction's status in a script, one per query (the last repeats); `succeeded` is the end its prompt decides (a marked prompt fails). */
export type ReplicateStep = 'starting' | 'processing' | 'succeeded' | 'aborted';

export const SIMULATED_STARTING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const PREDICTION = 'replicate.prediction';
const VERSION = /^[a-f0-9]{64}$/;
const PREDICT_TIME = 4.2;

/** What a known model takes: the type of each input (a list: its allowed values), the required ones, whether its output is a list. */
export interface ReplicateModelSchema {
  fields: Readonly<Record<string, 'string' | 'number' | 'integer' | 'boolean' | readonly (string | number)[]>>;
  required: readonly string[];
  /** `uri` (a string, the video models' usual) or `list` (a list of URIs). */
  output?: 'uri' | 'list';
}

/** The input schemas of the builtin models (replicate.com/<owner>/<name>/api); other models take any input. */
export const REPLICATE_MODEL_SCHEMAS: Readonly<Record<string, ReplicateModelSchema>> = {
  'kwaivgi/kling-v2.5-turbo-pro': {
    fields: {
      prompt: 'string',
      negative_prompt: 'string',
      start_image: 'string',
      image: 'string',
      aspect_ratio: ['16:9', '9:16', '1:1'],
      duration: [5, 10],
    },
    required: ['prompt'],
  },
};

type Outcome = 'video' | 'moderation' | 'failure';

interface EmulatedPrediction {
  model: string;
  version: string;
  input: Record<string, unknown>;
  outcome: Outcome;
  output: 'uri' | 'list';
  canceledAt?: number;
  /** When a scripted prediction reached its end (the hour of its output counts from there). */
  endedAt?: number;
  script?: ReplicateStep[];
  queries?: number;
}

/** Absent a script, predictions follow the clock: starting 2 s, processing until 6 s, then done. */
export interface ReplicateEmulatorOptions extends ScriptedEmulatorOptions<ReplicateStep> {
  /** The one API token it accepts. */
  apiToken: string;
}

/** A create failure a test queued: this status, body and headers instead of the next create. */
export type ReplicateScriptedFailure = ScriptedFailure & { body: unknown };

/** A create the emulator accepted: the model (or version), the input, and the request. */
export interface ReplicateCreate {
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  request: EmulatorRequest;
}

/**
 * Replicate's predictions API (docs: upstream-protocols-aggregators.md, section 2), one emulator
 * for the embedded simulator and the tests: `Authorization: Bearer <token>` on every call but the
 * file host (401 Unauthenticated otherwise); `POST /v1/models/{owner}/{name}/predictions {input}`
 * and `POST /v1/predictions {version, input}` answer 201 with the prediction `starting` (the
 * builtin model's input checked at the create: 422 Input validation failed; a version that is not
 * 64 hex digits: 422 Invalid version or not permitted); `GET /v1/predictions/{id}` moves starting,
 * processing, then succeeded (output a URI, `metrics.predict_time`) or failed (`error` text: the
 * content filter's E005 for `[simulate:moderation]`, a crash for `[simulate:fail]`); the output
 * is removed an hour after the end (`data_removed`, the file 404); `POST .../cancel` cancels one
 * still running and answers an ended one unchanged; `GET /v1/account`. `[simulate:busy]` 429,
 * `[simulate:credit]` 402, `[simulate:reject]` 422 at the create. Tests also script statuses and
 * queue create errors; it logs requests and accepted creates.
 */
export class ReplicateEmulator extends ScriptedEmulator<ReplicateStep, ReplicateScriptedFailure, ReplicateEmulatorOptions> {
  /** Every accepted create, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly creates: ReplicateCreate[] = [];
  private readonly schemas = new Map<string, ReplicateModelSchema>(Object.entries(REPLICATE_MODEL_SCHEMAS));

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/replicate`), for the URLs it hands out. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const file = fileLinkMatch(req, /^\/files\/([a-z0-9]{26})\.mp4$/);
    if (file) return this.video(file[1]);
    const refused = this.checkToken(req.headers.authorization);
    if (refused) return refused;
    if (req.path === '/v1/webhooks/default/secret' && req.method === 'GET') return { status: 200, json: { key: this.webhookSecret } };
    if (req.path === '/v1/account' && req.method === 'GET')
      return { status: 200, json: { type: 'organization', username: 'simulator', name: 'Simulator', github_url: null } };
    const model = /^\/v1\/models\/([^/]+)\/([^/]+)(?:\/versions\/([^/]+))?$/.exec(req.path);
    if (model && req.method === 'GET') return this.model(`${model[1]}/${model[2]}`, model[3]);
    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(req.path);
    if (byModel && req.method === 'POST') return this.create(`${byModel[1]}/${byModel[2]}`, null, req, base);
    if (req.path === '/v1/predictions' && req.method === 'POST') return this.createByVersion(req, base);
    const prediction = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(req.path);
    if (prediction && !prediction[2] && req.method === 'GET') return this.get(prediction[1], base);
    if (prediction && prediction[2] && req.method === 'POST') return this.cancel(prediction[1], base);
    return problem(404, 'Not found', 'Not found.');
  }

  /** The account's webhook signing secret (`GET /v1/webhooks/default/secret`), as Replicate's `whsec_<base64>`. */
  readonly webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;

  /** The next create answers this instead (Replicate's word for a submit). */
  failNextCreate(failure: ReplicateScriptedFailure): void {
    this.failNextSubmit(failure);
  }

  /**
   * `GET /v1/models/{owner}/{name}` (its latest version within) or `.../versions/{id}`: the version's
   * `openapi_schema`, an enum written as Replicate writes it (`allOf: [{$ref}]` to a schema of its own).
   */
  private model(name: string, version: string | undefined): EmulatorReply {
    const schema = this.schemas.get(name);
    if (!schema) return problem(404, 'Not found', 'Not found.');
    const { properties, required } = schemaOfFields(schema.fields, schema.required);
    const enums: Record<string, unknown> = {};
    for (const [field, property] of Object.entries(properties)) {
      if (!property.enum) continue;
      enums[field] = { title: field, description: 'An enumeration.', type: property.type, enum: property.enum };
      properties[field] = { allOf: [{ $ref: `#/components/schemas/${field}` }], default: property.default, title: property.title } as never;
    }
    const latest = {
      id: version ?? 'b'.repeat(64),
      openapi_schema: { components: { schemas: { Input: { type: 'object', title: 'Input', required, properties }, ...enums } } },
    };
    if (version !== undefined) return { status: 200, json: latest };
    const [owner, modelName] = name.split('/');
    return { status: 200, json: { owner, name: modelName, visibility: 'public', latest_version: latest } };
  }

  /** A model's input schema (tests add the models an operator adds). */
  defineModel(model: string, schema: ReplicateModelSchema): void {
    this.schemas.set(model, schema);
  }

  /** Replicate's 401s: no token, and one it does not know (replicate-python #47). */
  private checkToken(header: string | string[] | undefined): EmulatorReply | null {
    const authorization = typeof header === 'string' ? header : '';
    if (!authorization.startsWith('Bearer ') || authorization.length === 'Bearer '.length)
      return problem(401, 'Unauthenticated', 'You did not pass an authentication token');
    if (authorization.slice('Bearer '.length) !== this.options.apiToken) return problem(401, 'Unauthenticated', 'Invalid token.');
    return null;
  }

  private async createByVersion(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const version = (req.json as { version?: unknown } | undefined)?.version;
    if (typeof version !== 'string' || !VERSION.test(version))
      return problem(
        422,
        'Invalid version or not permitted',
        "The specified version does not exist (or perhaps you don't have permission to use it?)",
      );
    // A version of a known model says which one; any other stands for itself.
    return this.create(`version/${version.slice(0, 8)}`, version, req, base);
  }

  private async create(model: string, version: string | null, req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure);
    const input = (req.json as { input?: unknown } | undefined)?.input;
    if (!input || typeof input !== 'object' || Array.isArray(input))
      return invalid([{ type: 'type_error', field: 'input', description: 'input must be an object' }]);
    const fields = input as Record<string, unknown>;
    const prompt = textOrEmpty(fields.prompt);
    if (prompt.includes('[simulate:busy]'))
      return {
        ...problem(429, 'Too Many Requests', 'Request was throttled. Your rate limit resets in ~30s.'),
        headers: { 'retry-after': '30' },
      };
    if (prompt.includes('[simulate:credit]'))
      return problem(
        402,
        'Insufficient credit',
        'You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit.',
      );
    if (prompt.includes('[simulate:reject]'))
      return invalid([{ type: 'value_error', field: 'prompt', description: 'prompt is invalid (simulated)' }]);
    const schema = this.schemas.get(model);
    const issues = schema ? checkInput(schema, fields) : [];
    if (issues.length > 0) return invalid(issues);
    await this.forgetOld(PREDICTION);
    const emulated: EmulatedPrediction = {
      model,
      version: version ?? 'hidden',
      input: fields,
      outcome: markedEnd(prompt, { moderation: 'moderation' as const, fail: 'failure' as const }) ?? 'video',
      output: schema?.output ?? 'uri',
      ...this.takeScript(),
    };
    // Replicate's ids: 26 lower-case letters and digits.
    const record = await this.options.records.insertOrGet(PREDICTION, randomId(), emulated);
    keepInLog(this.creates, { model, version, input: fields, request: req });
    const webhook = (req.json as { webhook?: unknown }).webhook;
    // Asked for `completed` only (the gateway's filter): one webhook, the prediction as it ended, signed as Standard Webhooks.
    if (typeof webhook === 'string')
      this.callbacks.schedule(webhook, SIMULATED_DONE_MS, async () => this.webhookBody(record.key, base), this.signWebhook());
    return { status: 201, json: this.view(record.key, emulated, record.createdAt, 'starting', base) };
  }

  private async webhookBody(id: string, base: string): Promise<unknown> {
    const record = await this.options.records.find<EmulatedPrediction>(PREDICTION, id);
    return record ? this.view(id, record.data, record.createdAt, this.currentStep(record.data, record.createdAt), base) : null;
  }

  private signWebhook(): (body: string) => Record<string, string> {
    return (body) => {
      const id = `msg_${randomUUID()}`;
      const timestamp = Math.floor(Date.now() / 1000);
      return {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signReplicateWebhook(this.webhookSecret, id, timestamp, body),
      };
    };
  }

  private async get(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedPrediction>(PREDICTION, id);
    if (!record) return problem(404, 'Not found', 'Not found.');
    const prediction = record.data;
    const step = prediction.script ? await this.nextStep(id, prediction) : this.stepByClock(prediction, record.createdAt);
    return {
      status: 200,
      json: this.view(id, (await this.options.records.find<EmulatedPrediction>(PREDICTION, id))!.data, record.createdAt, step, base),
    };
  }

  private async cancel(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedPrediction>(PREDICTION, id);
    if (!record) return problem(404, 'Not found', 'Not found.');
    const prediction = record.data;
    const step = this.currentStep(prediction, record.createdAt);
    // "If a prediction is completed, it cannot be canceled": the answer is the prediction as it is.
    if (prediction.canceledAt !== undefined || step === 'succeeded' || step === 'aborted')
      return { status: 200, json: this.view(id, prediction, record.createdAt, step, base) };
    const canceled = { ...prediction, canceledAt: this.options.now() };
    await this.options.records.update(PREDICTION, id, canceled);
    return { status: 200, json: this.view(id, canceled, record.createdAt, step, base) };
  }

  /** The prediction as Replicate shows it at `step`. */
  private view(id: string, prediction: EmulatedPrediction, createdAt: number, step: ReplicateStep, base: string): Record<string, unknown> {
    const now = this.options.now();
    const ended = prediction.canceledAt !== undefined || step === 'succeeded' || step === 'aborted';
    const endedAt = prediction.canceledAt ?? prediction.endedAt ?? (prediction.script ? now : createdAt + SIMULATED_DONE_MS);
    const removed = ended && now - endedAt >= REPLICATE_OUTPUT_LIFETIME_MS;
    const status = prediction.canceledAt !== undefined ? 'canceled' : step === 'succeeded' ? endStatus(prediction.outcome) : step;
    const url = `${base}/files/${id}.mp4`;
    return {
      id,
      model: prediction.model,
      version: prediction.version,
      input: removed ? {} : prediction.input,
      logs: removed ? '' : 'Generating video...\n',
      output: status === 'succeeded' && !removed ? (prediction.output === 'list' ? [url] : url) : null,
      data_removed: removed,
      error: status === 'failed' ? errorText(prediction.outcome) : null,
      status,
      source: 'api',
      created_at: new Date(createdAt).toISOString(),
      started_at: step === 'starting' && !ended ? null : new Date(createdAt + SIMULATED_STARTING_MS).toISOString(),
      completed_at: ended ? new Date(endedAt).toISOString() : null,
      metrics: status === 'succeeded' || status === 'failed' ? { predict_time: PREDICT_TIME, total_time: PREDICT_TIME + 2 } : {},
      urls: {
        get: `${base}/v1/predictions/${id}`,
        cancel: `${base}/v1/predictions/${id}/cancel`,
        web: `https://replicate.com/p/${id}`,
      },
    };
  }

  private async nextStep(id: string, prediction: EmulatedPrediction): Promise<ReplicateStep> {
    const queries = prediction.queries ?? 0;
    const step = prediction.script![Math.min(queries, prediction.script!.length - 1)];
    const ends = (step === 'succeeded' || step === 'aborted') && prediction.endedAt === undefined;
    await this.options.records.update(PREDICTION, id, {
      ...prediction,
      queries: queries + 1,
      ...(ends ? { endedAt: this.options.now() } : {}),
    });
    return step;
  }

  private stepByClock(prediction: EmulatedPrediction, createdAt: number): ReplicateStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_STARTING_MS) return 'starting';
    return elapsed < SIMULATED_DONE_MS ? 'processing' : 'succeeded';
  }

  /** Where a prediction is now, without counting a query: what a cancel and the file host decide on. */
  private currentStep(prediction: EmulatedPrediction, createdAt: number): ReplicateStep {
    return stepNow(prediction, () => this.stepByClock(prediction, createdAt));
  }

  /** The file host (replicate.delivery): no key; there only while the prediction's output is. */
  private async video(id: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedPrediction>(PREDICTION, id);
    if (!record) return { status: 404, text: 'not found' };
    const view = this.view(id, record.data, record.createdAt, this.currentStep(record.data, record.createdAt), '');
    if (view.status !== 'succeeded' || view.data_removed) return { status: 404, text: 'not found' };
    return this.videoReply(askedOfUsualKeys(record.data.input));
  }
}

function endStatus(outcome: Outcome): 'succeeded' | 'failed' {
  return outcome === 'video' ? 'succeeded' : 'failed';
}

/** A failed prediction's `error`: what a model's content filter says (Seedance's E005 wording), or a crash with an address in it. */
function errorText(outcome: Outcome): string {
  return outcome === 'moderation'
    ? 'The input or output was flagged as sensitive. Please try again with different inputs. (E005) (simulated)'
    : 'CUDA out of memory on worker 10.0.0.7 (simulated)';
}

interface InvalidField {
  type: string;
  field: string;
  description: string;
}

/** The model's input against its schema; inputs it does not know are refused too (Replicate's validation names them). */
function checkInput(schema: ReplicateModelSchema, input: Record<string, unknown>): InvalidField[] {
  const issues: InvalidField[] = [];
  for (const field of schema.required)
    if (input[field] === undefined) issues.push({ type: 'required', field, description: `${field} is required` });
  for (const [field, value] of Object.entries(input)) {
    const type = schema.fields[field];
    if (type === undefined) {
      issues.push({ type: 'additional_property_not_allowed', field, description: `Additional property ${field} is not allowed` });
      continue;
    }
    const fits = Array.isArray(type) ? type.includes(value) : type === 'integer' ? Number.isInteger(value) : typeof value === type;
    if (!fits)
      issues.push({
        type: Array.isArray(type) ? 'enum' : 'invalid_type',
        field,
        description: `${field} must be ${Array.isArray(type) ? `one of the following: ${type.join(', ')}` : `a ${type}`}`,
      });
  }
  return issues;
}

function invalid(fields: InvalidField[]): EmulatorReply {
  return {
    status: 422,
    json: {
      title: 'Input validation failed',
      detail: fields.map((field) => `- ${field.field}: ${field.description}`).join('\n'),
      status: 422,
      invalid_fields: fields,
    },
  };
}

function problem(status: number, title: string, detail: string): EmulatorReply {
  return { status, json: { title, detail, status } };
}

function randomId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(26), (byte) => alphabet[byte % alphabet.length]).join('');
}
