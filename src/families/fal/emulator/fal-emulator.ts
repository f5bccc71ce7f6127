import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { signFalWebhook } from '../fal-webhook-signature';
import { askedOfUsualKeys, askedSeconds } from '../../simulator-shared/asked-video';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { keepInLog } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { textOrEmpty } from '../../simulator-shared/request-fields';
import { schemaOfFields } from '../../shared/endpoint-schema';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import { falEndpointOf } from '../fal-protocol';
import { stepNow, stepOfQuery } from '../../shared/emulator-steps';

/** The seeded simulator channel's api_key: fal keys are `<key_id>:<key_secret>`. */
export const FAL_SIMULATOR_KEY = 'simulator-key-id:simulator-key-secret';

/** A request's queue status in a script: one per status query (the last repeats). */
export type FalStep = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const REQUEST = 'fal.request';

/** What a known endpoint takes: the type of each input field (a list: its allowed values), the required ones, where its result holds the video. */
export interface FalEndpointSchema {
  fields: Readonly<Record<string, 'string' | 'number' | 'integer' | 'boolean' | readonly (string | number)[]>>;
  required: readonly string[];
  /** `video` (`{video: {url}}`, fal's usual) or `videos` (`{videos: [{url}]}`). */
  output?: 'video' | 'videos';
}

const KLING_FIELDS = { prompt: 'string', duration: ['5', '10'], negative_prompt: 'string', cfg_scale: 'number' } as const;
const KLING_V3_FIELDS = {
  prompt: 'string',
  duration: ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'],
  generate_audio: 'boolean',
  negative_prompt: 'string',
  cfg_scale: 'number',
} as const;
const SEEDANCE_2_FIELDS = {
  prompt: 'string',
  resolution: ['720p', '480p'],
  duration: ['auto', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'],
  aspect_ratio: ['auto', '21:9', '16:9', '4:3', '1:1', '3:4', '9:16'],
  generate_audio: 'boolean',
  seed: 'integer',
} as const;
const HAILUO_FIELDS = { prompt: 'string', duration: ['6', '10'], prompt_optimizer: 'boolean' } as const;
const VEO_FIELDS = {
  prompt: 'string',
  duration: ['4s', '6s', '8s'],
  resolution: ['720p', '1080p', '4k'],
  negative_prompt: 'string',
  generate_audio: 'boolean',
  seed: 'integer',
  enhance_prompt: 'boolean',
  auto_fix: 'boolean',
} as const;

/** The input schemas of the builtin endpoints (fal.ai/models/<id>/llms.txt); other endpoints take any object. */
export const FAL_ENDPOINT_SCHEMAS: Readonly<Record<string, FalEndpointSchema>> = {
  'fal-ai/kling-video/v2.5-turbo/pro/text-to-video': {
    fields: { ...KLING_FIELDS, aspect_ratio: ['16:9', '9:16', '1:1'] },
    required: ['prompt'],
  },
  'fal-ai/kling-video/v2.5-turbo/pro/image-to-video': {
    fields: { ...KLING_FIELDS, image_url: 'string', tail_image_url: 'string' },
    required: ['prompt', 'image_url'],
  },
  'fal-ai/minimax/hailuo-02/standard/text-to-video': { fields: HAILUO_FIELDS, required: ['prompt'] },
  'fal-ai/minimax/hailuo-02/standard/image-to-video': {
    fields: { ...HAILUO_FIELDS, image_url: 'string', end_image_url: 'string', resolution: ['512P', '768P'] },
    required: ['prompt', 'image_url'],
  },
  'fal-ai/kling-video/v3/pro/text-to-video': {
    fields: { ...KLING_V3_FIELDS, aspect_ratio: ['16:9', '9:16', '1:1'] },
    required: [],
  },
  'fal-ai/kling-video/v3/pro/image-to-video': {
    fields: { ...KLING_V3_FIELDS, start_image_url: 'string', end_image_url: 'string' },
    required: ['start_image_url'],
  },
  'bytedance/seedance-2.0/text-to-video': { fields: SEEDANCE_2_FIELDS, required: ['prompt'] },
  'bytedance/seedance-2.0/image-to-video': { fields: { ...SEEDANCE_2_FIELDS, image_url: 'string' }, required: ['prompt', 'image_url'] },
  'bytedance/seedance-2.0/fast/text-to-video': { fields: SEEDANCE_2_FIELDS, required: ['prompt'] },
  'bytedance/seedance-2.0/fast/image-to-video': {
    fields: { ...SEEDANCE_2_FIELDS, image_url: 'string' },
    required: ['prompt', 'image_url'],
  },
  'fal-ai/minimax/hailuo-2.3/standard/text-to-video': { fields: HAILUO_FIELDS, required: ['prompt'] },
  'fal-ai/minimax/hailuo-2.3/standard/image-to-video': {
    fields: { ...HAILUO_FIELDS, image_url: 'string' },
    required: ['prompt', 'image_url'],
  },
  'fal-ai/veo3.1': { fields: { ...VEO_FIELDS, aspect_ratio: ['16:9', '9:16'] }, required: ['prompt'] },
  'fal-ai/veo3.1/fast': { fields: { ...VEO_FIELDS, aspect_ratio: ['16:9', '9:16'] }, required: ['prompt'] },
  'fal-ai/veo3.1/fast/image-to-video': {
    fields: { ...VEO_FIELDS, aspect_ratio: ['auto', '16:9', '9:16'], image_url: 'string' },
    required: ['prompt', 'image_url'],
  },
  'fal-ai/veo3.1/image-to-video': {
    fields: { ...VEO_FIELDS, aspect_ratio: ['auto', '16:9', '9:16'], image_url: 'string' },
    required: ['prompt', 'image_url'],
  },
};

/** How a request ends, decided at the submit (prompt markers, the input's check). */
type Outcome =
  { kind: 'video' } | { kind: 'moderation' } | { kind: 'failure' } | { kind: 'invalid'; issues: FalIssue[] } | { kind: 'cancelled' };

interface FalIssue {
  loc: string[];
  msg: string;
  type: string;
}

interface EmulatedRequest {
  endpoint: string;
  app: string;
  /** Seconds of video, what `x-fal-billable-units` reports. */
  seconds: number;
  /** What the input asked of its video; absent on older records (then the simulator's generous default). */
  asked?: AskedVideo;
  outcome: Outcome;
  output: 'video' | 'videos';
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: FalStep[];
  queries?: number;
}

/** Absent a script, requests follow the clock: queued 2 s, in progress until 6 s, then completed. */
export interface FalEmulatorOptions extends ScriptedEmulatorOptions<FalStep> {
  /** The one key it accepts, `<key_id>:<key_secret>`. */
  apiKey: string;
}

/** A submit failure a test queued: this status and body instead of the next submit. */
export type FalScriptedFailure = ScriptedFailure & { body: unknown };

/** A submit the emulator accepted: its endpoint, input and request. */
export interface FalSubmit {
  endpoint: string;
  input: Record<string, unknown>;
  request: EmulatorRequest;
}

/**
 * fal's queue API (docs: upstream-protocols-aggregators.md, section 1), one emulator for the embedded
 * simulator and the tests: `Authorization: Key <key_id>:<key_secret>` on every call but the CDN
 * (401 otherwise); `POST /{endpoint id}` queues a request (the builtin endpoints' input checked
 * against their schemas, any other endpoint takes any object); status, result and cancel live
 * under the app (`/{owner}/{alias}/requests/{id}...`, never the endpoint's subpath: 404 there);
 * COMPLETED is the only end, a failure showing on the result (422 `content_policy_violation`, a
 * 500 request error, a 422 validation error); the result carries `x-fal-billable-units`; cancel
 * removes a request IN_QUEUE (202), is signalled but ignored IN_PROGRESS (202), is a 400
 * ALREADY_COMPLETED after. Prompt markers: `[simulate:moderation]`, `[simulate:fail]` end so;
 * `[simulate:reject]` 422, `[simulate:busy]` 429 and `[simulate:locked]` 403 at the submit.
 * Tests also script statuses and queue submit errors; it logs requests and accepted submits.
 */
export class FalEmulator extends ScriptedEmulator<FalStep, FalScriptedFailure, FalEmulatorOptions> {
  /** Every accepted submit, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly submits: FalSubmit[] = [];
  private failNext = false;
  /** The key its webhooks are signed with; its public half is the JWKS at `/.well-known/jwks.json`. */
  private readonly signingKey = generateKeyPairSync('ed25519');
  private readonly schemas = new Map<string, FalEndpointSchema>(Object.entries(FAL_ENDPOINT_SCHEMAS));

  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/fal`), for the URLs it hands out. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const file = fileLinkMatch(req, /^\/files\/([0-9a-f-]{36})\.mp4$/);
    if (file) return this.video(file[1]);
    // fal's JWKS is public (fal serves it at rest.alpha.fal.ai); a channel's settings.webhook_jwks_url points here.
    if (req.path === '/.well-known/jwks.json' && req.method === 'GET')
      return { status: 200, json: { keys: [{ ...this.signingKey.publicKey.export({ format: 'jwk' }), kid: 'emulator', use: 'sig' }] } };
    // Each endpoint's OpenAPI document is public too (fal serves it at fal.ai/api/openapi/queue/openapi.json).
    if (req.path === '/api/openapi/queue/openapi.json' && req.method === 'GET') return this.openApi(req.query.get('endpoint_id') ?? '');
    const refused = this.checkKey(req.headers.authorization);
    if (refused) return refused;
    const queued = /^\/(.+)\/requests\/([^/]+?)(\/status|\/cancel)?$/.exec(req.path);
    if (queued) {
      const [, app, id, action] = queued;
      if (action === '/status' && req.method === 'GET') return this.status(app, id, base);
      if (action === '/cancel' && req.method === 'PUT') return this.cancel(app, id);
      if (action === undefined && req.method === 'GET') return this.result(app, id, base);
      return { status: 405, json: { detail: 'Method Not Allowed' } };
    }
    if (req.method === 'POST') return this.submit(req.path.slice(1), req, base);
    return { status: 404, json: { detail: 'Not Found' } };
  }

  /** The next accepted request ends failed, a request error of fal's own (tests; as the `[simulate:fail]` marker, whatever the prompt). */
  failNextRequest(): void {
    this.failNext = true;
  }

  /** An endpoint's input schema (tests add the endpoints an operator adds). */
  defineEndpoint(endpointId: string, schema: FalEndpointSchema): void {
    this.schemas.set(endpointId, schema);
  }

  /** The endpoint's OpenAPI document as fal publishes it: `POST /<id>` taking its input schema; 404 for one it does not know. */
  private openApi(endpointId: string): EmulatorReply {
    const schema = this.schemas.get(endpointId);
    if (!schema) return { status: 404, json: { detail: `Endpoint ${endpointId} not found` } };
    const input = `${endpointId.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}Input`;
    const body = { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${input}` } } } };
    const inputSchema = { ...schemaOfFields(schema.fields, schema.required), 'x-fal-order-properties': Object.keys(schema.fields) };
    return {
      status: 200,
      json: {
        openapi: '3.0.4',
        info: { title: 'Queue OpenAPI for ' + endpointId, version: '1.0.0', 'x-fal-metadata': { endpointId } },
        paths: { [`/${endpointId}`]: { post: { requestBody: body, responses: { '200': { description: 'The request status.' } } } } },
        components: { schemas: { [input]: inputSchema } },
      },
    };
  }

  /** Whether the request is still IN_QUEUE, in progress or completed, without counting a query. */
  async stepOf(id: string): Promise<FalStep | null> {
    const record = await this.options.records.find<EmulatedRequest>(REQUEST, id);
    return record ? this.currentStep(record.data, record.createdAt) : null;
  }

  /** fal's answers for a missing key, one that is not `<key_id>:<key_secret>`, and one it does not know (fal-ai/fal issues). */
  private checkKey(header: string | string[] | undefined): EmulatorReply | null {
    const authorization = typeof header === 'string' ? header : '';
    if (!authorization.startsWith('Key ')) return { status: 401, json: { detail: 'Missing authorization header' } };
    const key = authorization.slice('Key '.length);
    if (key.split(':').length !== 2)
      return { status: 401, json: { detail: "Invalid Key Authorization header format. Expected '<key_id>:<key_secret>'." } };
    if (key !== this.options.apiKey) return { status: 401, json: { detail: 'No user found for Key ID and Secret' } };
    return null;
  }

  private async submit(endpointId: string, req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const endpoint = falEndpointOf(endpointId);
    if (!endpoint) return { status: 404, json: { detail: `Application '${endpointId}' not found` } };
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure);
    if (!req.json || typeof req.json !== 'object' || Array.isArray(req.json))
      return { status: 422, json: { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] } };
    const input = req.json as Record<string, unknown>;
    const prompt = textOrEmpty(input.prompt);
    if (prompt.includes('[simulate:busy]')) return { status: 429, json: { detail: 'Too many requests (simulated)' } };
    if (prompt.includes('[simulate:locked]'))
      return {
        status: 403,
        json: { detail: 'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing. (simulated)' },
      };
    if (prompt.includes('[simulate:reject]'))
      return { status: 422, json: { detail: [{ loc: ['body', 'prompt'], msg: 'Invalid prompt (simulated)', type: 'value_error' }] } };
    const schema = this.schemas.get(endpoint.id);
    const issues = schema ? checkInput(schema, input) : [];
    const outcome: Outcome =
      issues.length > 0
        ? { kind: 'invalid', issues }
        : prompt.includes('[simulate:moderation]')
          ? { kind: 'moderation' }
          : prompt.includes('[simulate:fail]') || this.failNext
            ? { kind: 'failure' }
            : { kind: 'video' };
    if (outcome.kind !== 'invalid') this.failNext = false;
    await this.forgetOld(REQUEST);
    const emulated: EmulatedRequest = {
      endpoint: endpoint.id,
      app: endpoint.app,
      seconds: askedSeconds(input.duration) ?? 5,
      asked: askedOfUsualKeys(input),
      outcome,
      output: schema?.output ?? 'video',
      ...this.takeScript(),
    };
    const record = await this.options.records.insertOrGet(REQUEST, randomUUID(), emulated);
    keepInLog(this.submits, { endpoint: endpoint.id, input, request: req });
    const webhook = req.query.get('fal_webhook');
    if (webhook)
      this.callbacks.schedule(webhook, SIMULATED_DONE_MS, async () => this.webhookBody(record.key), this.signWebhook(record.key));
    return {
      status: 200,
      headers: { 'x-fal-request-id': record.key },
      json: { status: 'IN_QUEUE', ...urls(base, endpoint.app, record.key), queue_position: 0 },
    };
  }

  /** fal's webhook once a request completed: OK with its result, or ERROR (the gateway reads the result itself either way). */
  private async webhookBody(id: string): Promise<unknown> {
    const record = await this.options.records.find<EmulatedRequest>(REQUEST, id);
    const failed = record ? storedError(record.data.outcome) : null;
    return failed
      ? {
          request_id: id,
          gateway_request_id: id,
          status: 'ERROR',
          error: `Invalid status code: ${failed.status}`,
          payload: { detail: failed.detail },
        }
      : { request_id: id, gateway_request_id: id, status: 'OK', payload: null, payload_error: 'the emulator sends no payload' };
  }

  /** The X-Fal-Webhook-* headers of one webhook, signed with this emulator's key as fal signs. */
  private signWebhook(requestId: string): (body: string) => Record<string, string> {
    return (body) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const userId = 'emulator-user';
      return {
        'x-fal-webhook-request-id': requestId,
        'x-fal-webhook-user-id': userId,
        'x-fal-webhook-timestamp': timestamp,
        'x-fal-webhook-signature': signFalWebhook(this.signingKey.privateKey, requestId, userId, timestamp, Buffer.from(body)),
      };
    };
  }

  private async status(app: string, id: string, base: string): Promise<EmulatorReply> {
    const record = await this.find(app, id);
    if (!record) return notFound();
    const request = record.data;
    const step =
      request.outcome.kind === 'cancelled'
        ? 'COMPLETED'
        : await stepOfQuery(this.options.records, REQUEST, id, request, () => this.stepByClock(request, record.createdAt));
    const json: Record<string, unknown> = { status: step, ...urls(base, app, id), logs: null };
    if (step === 'IN_QUEUE') json.queue_position = 0;
    if (step === 'COMPLETED') {
      json.metrics = { inference_time: 4.2 };
      const failed = storedError(request.outcome);
      if (failed) Object.assign(json, { error: failed.detail, error_type: failed.type });
    }
    return { status: 200, json };
  }

  private async result(app: string, id: string, base: string): Promise<EmulatorReply> {
    const record = await this.find(app, id);
    if (!record) return notFound();
    const request = record.data;
    if (this.currentStep(request, record.createdAt) !== 'COMPLETED')
      return { status: 400, json: { detail: 'Request is still in progress' } };
    const { outcome } = request;
    if (outcome.kind === 'moderation')
      return {
        status: 422,
        headers: { 'x-fal-retryable': 'false' },
        json: {
          detail: [
            {
              loc: ['body', 'prompt'],
              msg: 'The content was flagged by a content checker. (simulated)',
              type: 'content_policy_violation',
              url: 'https://docs.fal.ai/errors#content_policy_violation',
              categories: ['violence'],
            },
          ],
        },
      };
    if (outcome.kind === 'invalid') return { status: 422, json: { detail: outcome.issues } };
    const failed = storedError(outcome);
    if (failed)
      return {
        status: failed.status,
        headers: { 'x-fal-error-type': failed.type },
        json: { detail: failed.detail, error_type: failed.type },
      };
    const file = { url: `${base}/files/${id}.mp4`, content_type: 'video/mp4', file_name: `${id}.mp4`, file_size: 50_016 };
    return {
      status: 200,
      headers: { 'x-fal-billable-units': String(request.seconds), 'x-fal-request-id': id },
      json: request.output === 'videos' ? { videos: [file] } : { video: file, seed: 42 },
    };
  }

  private async cancel(app: string, id: string): Promise<EmulatorReply> {
    const record = await this.find(app, id);
    if (!record) return { status: 404, json: { status: 'NOT_FOUND' } };
    const request = record.data;
    const step = this.currentStep(request, record.createdAt);
    if (step === 'COMPLETED') return { status: 400, json: { status: 'ALREADY_COMPLETED' } };
    // In progress: fal signals the runner, and this app carries on.
    if (step === 'IN_PROGRESS') return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
    await this.options.records.update(REQUEST, id, { ...request, outcome: { kind: 'cancelled' }, script: ['COMPLETED'], queries: 0 });
    return { status: 202, json: { status: 'CANCELLATION_REQUESTED' } };
  }

  /** A request of this app (another app's path does not find it, nor does the endpoint's full path). */
  private async find(app: string, id: string) {
    const record = await this.options.records.find<EmulatedRequest>(REQUEST, id);
    return record && record.data.app === app ? record : null;
  }

  private stepByClock(request: EmulatedRequest, createdAt: number): FalStep {
    if (request.outcome.kind === 'cancelled') return 'COMPLETED';
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_QUEUED_MS) return 'IN_QUEUE';
    return elapsed < SIMULATED_DONE_MS ? 'IN_PROGRESS' : 'COMPLETED';
  }

  /** Where a request is now, without counting a query: what the result and the CDN decide on. */
  private currentStep(request: EmulatedRequest, createdAt: number): FalStep {
    if (request.outcome.kind === 'cancelled') return 'COMPLETED';
    return stepNow(request, () => this.stepByClock(request, createdAt));
  }

  /** The CDN file: like fal's, no key needed; there only once the request completed with a video. */
  private video(id: string): Promise<EmulatorReply> {
    return this.finishedVideo<EmulatedRequest>(
      REQUEST,
      id,
      (request, createdAt) => request.outcome.kind === 'video' && this.currentStep(request, createdAt) === 'COMPLETED',
    );
  }
}

/** What a failed request's result answers (and its COMPLETED status says): fal's request errors. */
function storedError(outcome: Outcome): { status: number; type: string; detail: string } | null {
  if (outcome.kind === 'failure')
    return { status: 500, type: 'runner_server_error', detail: 'Internal server error at 10.0.0.7 (simulated)' };
  if (outcome.kind === 'cancelled') return { status: 499, type: 'client_cancelled', detail: 'Request cancelled by the client' };
  return null;
}

/** The endpoint's input against its schema: pydantic's issues (`loc`, `msg`, `type`); fields it does not know are ignored, as fal's apps do. */
function checkInput(schema: FalEndpointSchema, input: Record<string, unknown>): FalIssue[] {
  const issues: FalIssue[] = [];
  for (const field of schema.required)
    if (input[field] === undefined) issues.push({ loc: ['body', field], msg: 'Field required', type: 'missing' });
  for (const [field, type] of Object.entries(schema.fields)) {
    const value = input[field];
    if (value === undefined) continue;
    const fits = Array.isArray(type) ? type.includes(value) : type === 'integer' ? Number.isInteger(value) : typeof value === type;
    if (!fits)
      issues.push({
        loc: ['body', field],
        msg: `Input should be ${Array.isArray(type) ? type.join(', ') : `a ${type}`}`,
        type: 'value_error',
      });
  }
  return issues;
}

function urls(base: string, app: string, id: string) {
  const response = `${base}/${app}/requests/${id}`;
  return { request_id: id, response_url: response, status_url: `${response}/status`, cancel_url: `${response}/cancel` };
}

function notFound(): EmulatorReply {
  return { status: 404, json: { detail: 'Request not found' } };
}
