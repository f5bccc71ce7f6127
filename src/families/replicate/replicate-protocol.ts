import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { reportedUsage } from '../shared/reported-usage';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome, ProviderUsage } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { videoUrlAt } from '../shared/output-path';

// Replicate's predictions API (docs: upstream-protocols-aggregators.md, section 2; replicate/replicate-javascript lib/predictions.js, lib/identifier.js).

/** Replicate's API host, a new channel's base_url (the adapter adds `/v1`). */
export const REPLICATE_BASE_URL = 'https://api.replicate.com';
/** Where a prediction holds its result: `output`, a URI string or a list of them. */
export const REPLICATE_USUAL_OUTPUT = 'output';
/** "For predictions created through the API, all input parameters, output values, output files, and logs are automatically removed after an hour" [R16]. */
export const REPLICATE_OUTPUT_LIFETIME_MS = 3600_000;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const VERSION = /^[A-Za-z0-9]{1,128}$/;

/** A model reference: `owner/name` (the model's latest version) or `owner/name:version` (replicate-javascript ModelVersionIdentifier). */
export interface ReplicateModelRef {
  owner: string;
  name: string;
  version?: string;
}

export function replicateModelOf(reference: string): ReplicateModelRef | null {
  const match = /^([^/]+)\/([^/:]+)(?::(.+))?$/.exec(reference);
  if (!match || !NAME.test(match[1]) || !NAME.test(match[2]) || (match[3] !== undefined && !VERSION.test(match[3]))) return null;
  return { owner: match[1], name: match[2], ...(match[3] !== undefined ? { version: match[3] } : {}) };
}

/** The create call: `POST /v1/models/{owner}/{name}/predictions {input}`, or with a version `POST /v1/predictions {version, input}`. */
export function replicateCreate(model: ReplicateModelRef, input: Record<string, unknown>): { path: string; body: Record<string, unknown> } {
  if (model.version !== undefined) return { path: '/v1/predictions', body: { version: model.version, input } };
  return { path: `/v1/models/${model.owner}/${model.name}/predictions`, body: { input } };
}

/** The model (its latest version within) or one version of it: what its input schema is read from. */
export const replicateModelPath = (model: ReplicateModelRef): string =>
  `/v1/models/${model.owner}/${model.name}${model.version !== undefined ? `/versions/${model.version}` : ''}`;

export const replicatePredictionPath = (id: string): string => `/v1/predictions/${encodeURIComponent(id)}`;
export const replicateCancelPath = (id: string): string => `${replicatePredictionPath(id)}/cancel`;
/** The account of the key: the connectivity probe. */
export const REPLICATE_ACCOUNT_PATH = '/v1/account';

/** A prediction (replicate-javascript index.d.ts `Prediction`). */
export interface ReplicatePrediction {
  id?: unknown;
  model?: unknown;
  version?: unknown;
  status?: unknown;
  output?: unknown;
  error?: unknown;
  data_removed?: unknown;
  created_at?: unknown;
  started_at?: unknown;
  completed_at?: unknown;
  metrics?: { predict_time?: unknown; total_time?: unknown };
}

/** Replicate's error bodies: `{title, detail, status}` (RFC 7807-like), `invalid_fields` on a validation failure. */
export interface ReplicateErrorBody {
  title?: unknown;
  detail?: unknown;
  status?: unknown;
  invalid_fields?: Array<{ type?: unknown; field?: unknown }>;
}

/**
 * Moderation shows only as a failed prediction's `error` text: the models' content filters say
 * "flagged as sensitive" with Replicate's E005, or NSFW / safety / content policy (no structured
 * code exists: pollinations/pollinations #10801, HeyPuter/puter #3719 classify the same words).
 */
const MODERATION_TEXT =
  /flagged as sensitive|\bE005\b|nsfw|content[ _-]?polic|content filter|safety (?:check|filter|system)|moderat|inappropriate/i;

/**
 * A prediction -> the gateway's poll outcome: `starting` queued, `processing` running,
 * `succeeded` the video at the route's output path (and `metrics.predict_time`, what Replicate
 * bills hardware models by), `failed` moderation or generation failed (its `error` text only
 * decides which, never shown), `canceled` cancelled upstream, `aborted` (its deadline passed before
 * it started) failed. Anything else is asked again.
 */
export function mapReplicatePrediction(body: unknown, output: string, policy?: LinkPolicy): PollOutcome {
  const prediction = (body ?? {}) as ReplicatePrediction;
  const raw = storedPrediction(prediction);
  const providerUsage = predictSeconds(prediction.metrics?.predict_time);
  const usage = providerUsage ? { providerUsage } : {};
  switch (prediction.status) {
    case 'starting':
      return { state: 'queued', progress: 0, raw };
    case 'processing':
      return { state: 'running', raw, ...usage };
    case 'succeeded': {
      const url = prediction.data_removed === true ? undefined : videoUrlAt(prediction, output);
      if (url === undefined || !isShowableLink(url, policy))
        return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider returned no usable video'), raw, ...usage };
      return { state: 'succeeded', progress: 100, videoUrl: url, raw, ...usage };
    }
    case 'failed':
      return { state: 'failed', failReason: replicateFailReason(prediction.error), raw, ...usage };
    case 'canceled':
      return {
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'the prediction was cancelled upstream'),
        raw,
        cancelledUpstream: true,
        ...usage,
      };
    case 'aborted':
      return {
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'aborted', 'the prediction did not start before its deadline'),
        raw,
      };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(prediction.status) ?? null)} in the provider's answer`,
      );
  }
}

/** `content moderation failed` for a content filter's refusal, else `generation failed: the prediction failed`. */
export function replicateFailReason(error: unknown): string {
  if (typeof error === 'string' && MODERATION_TEXT.test(error)) return FAILURE.moderation;
  return failureReason(FAILURE.generation, 'the prediction failed');
}

/** `metrics.predict_time`: the seconds the prediction ran, what Replicate reports of its cost. */
function predictSeconds(value: unknown): ProviderUsage | undefined {
  return reportedUsage('predict_seconds', value);
}

/** The documented fields of a prediction, without its input, output links, logs or error text. */
function storedPrediction(prediction: ReplicatePrediction): unknown {
  return storedAnswer({
    id: keptText(prediction.id, 128),
    model: keptText(prediction.model, 256),
    version: keptText(prediction.version, 128),
    status: keptText(prediction.status, 32),
    data_removed: prediction.data_removed === true ? true : undefined,
    created_at: keptText(prediction.created_at, 64),
    started_at: keptText(prediction.started_at, 64),
    completed_at: keptText(prediction.completed_at, 64),
    predict_time: keptNumber(prediction.metrics?.predict_time),
    total_time: keptNumber(prediction.metrics?.total_time),
  });
}
