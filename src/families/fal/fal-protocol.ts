import { isShowableLink, LinkPolicy } from '../../common/urls/url-guard';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import { keptNumber, keptText, providerCode } from '../../upstream/provider-text';
import { storedAnswer } from '../shared/stored-answer';
import type { PollOutcome, ProviderUsage, UpstreamState } from '../../upstream/upstream-adapter';
import { UpstreamError } from '../../upstream/upstream-adapter';
import { videoUrlAt } from '../shared/output-path';

// fal's queue API (docs: upstream-protocols-aggregators.md, section 1; fal-ai/fal-js libs/client/src/queue.ts, utils.ts).

/** fal's queue host, a new channel's base_url. */
export const FAL_BASE_URL = 'https://queue.fal.run';
/** Where a fal video endpoint's result holds the video: `{"video": {"url": ...}}`. */
export const FAL_USUAL_OUTPUT = 'video.url';

/** App ids in these namespaces have three segments (`workflows/<owner>/<alias>`), fal-js `ENDPOINT_NAMESPACES`. */
const NAMESPACES = ['workflows', 'comfy'];
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** fal's legacy app ids, `<numeric owner>-<alias>` (fal-js `ensureEndpointIdFormat`). */
const LEGACY_ID = /^([0-9]+)-([a-zA-Z0-9-]+)$/;

/** An endpoint id as fal's queue routes it: the full id for the submit, `{owner}/{alias}` (the app) for the rest. */
export interface FalEndpoint {
  /** `fal-ai/kling-video/v2.5-turbo/pro/text-to-video` */
  id: string;
  /** `fal-ai/kling-video`: status, result and cancel live under it. */
  app: string;
}

/** The endpoint of an id, or null for one fal could not route (no owner and alias, odd characters). */
export function falEndpointOf(endpointId: string): FalEndpoint | null {
  const legacy = LEGACY_ID.exec(endpointId);
  const id = legacy ? `${legacy[1]}/${legacy[2]}` : endpointId;
  const parts = id.split('/');
  if (!parts.every((part) => SEGMENT.test(part))) return null;
  const appLength = NAMESPACES.includes(parts[0]) ? 3 : 2;
  if (parts.length < appLength) return null;
  return { id, app: parts.slice(0, appLength).join('/') };
}

/** Where fal publishes each endpoint's OpenAPI document (`?endpoint_id=`): fal.ai for its own queue host, else the channel's host. */
export function falOpenApiUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return root === FAL_BASE_URL ? 'https://fal.ai/api/openapi/queue/openapi.json' : `${root}/api/openapi/queue/openapi.json`;
}

export const falSubmitPath = (endpoint: FalEndpoint): string => `/${endpoint.id}`;
export const falResultPath = (endpoint: FalEndpoint, requestId: string): string =>
  `/${endpoint.app}/requests/${encodeURIComponent(requestId)}`;
export const falStatusPath = (endpoint: FalEndpoint, requestId: string): string => `${falResultPath(endpoint, requestId)}/status`;
export const falCancelPath = (endpoint: FalEndpoint, requestId: string): string => `${falResultPath(endpoint, requestId)}/cancel`;

/** `Authorization: Key <key_id>:<key_secret>`, or null for an api_key that is not one (fal-js `Key ${credentials}`). */
export function falAuthorization(apiKey: string): string | null {
  const [id, secret, ...rest] = apiKey.split(':');
  return rest.length === 0 && id && secret && !/\s/.test(apiKey) ? `Key ${apiKey}` : null;
}

/** The submit's answer: `{request_id, response_url, status_url, cancel_url, status, queue_position}`. */
export interface FalSubmitAnswer {
  request_id?: unknown;
  status?: unknown;
}

/** A status answer: `status` is IN_QUEUE, IN_PROGRESS or COMPLETED (a failed request is COMPLETED too). */
export interface FalQueueStatus {
  status?: unknown;
  request_id?: unknown;
  queue_position?: unknown;
  metrics?: { inference_time?: unknown };
  /** Newer queues say a failed request's error on its COMPLETED status (fal_client parses both). */
  error?: unknown;
  error_type?: unknown;
}

/** fal's error bodies: `{"detail": [...]}` (422), `{"detail": "...", "error_type": "..."}` (request errors), `{"status": "..."}` (cancel). */
export interface FalErrorBody {
  detail?: unknown;
  error_type?: unknown;
  status?: unknown;
}

/** A status answer read: still queued or running, or completed (then the result says how). */
export type FalStatusReading = { state: Extract<UpstreamState, 'queued' | 'running'>; raw: unknown } | { completed: true; raw: unknown };

/** `IN_QUEUE` queued, `IN_PROGRESS` running, `COMPLETED` done (the result call decides); anything else is transient. */
export function readFalStatus(body: unknown): FalStatusReading {
  const status = (body ?? {}) as FalQueueStatus;
  const raw = storedFalStatus(status);
  switch (status.status) {
    case 'IN_QUEUE':
      return { state: 'queued', raw };
    case 'IN_PROGRESS':
      return { state: 'running', raw };
    case 'COMPLETED':
      return { completed: true, raw };
    default:
      throw new UpstreamError(
        'transient',
        `unexpected status ${JSON.stringify(providerCode(status.status) ?? null)} in the provider's answer`,
      );
  }
}

/** A successful result: the video at the route's output path (the raw answer keeps neither it nor the model's other output). */
export function mapFalResult(body: unknown, output: string, billableUnits: unknown, statusRaw: unknown, policy?: LinkPolicy): PollOutcome {
  const providerUsage = falBillableUnits(billableUnits);
  const url = videoUrlAt(body, output);
  const raw = statusRaw;
  if (url === undefined || !isShowableLink(url, policy))
    return { state: 'failed', failReason: failureReason(FAILURE.generation, 'the provider returned no usable video'), raw, providerUsage };
  return { state: 'succeeded', progress: 100, videoUrl: url, raw, providerUsage };
}

/** `x-fal-billable-units`: what fal bills the request, in its endpoint's unit (seconds of video, videos...). */
export function falBillableUnits(header: unknown): ProviderUsage | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (typeof text !== 'string' || !/^\d{1,9}(\.\d{1,9})?$/.test(text.trim())) return undefined;
  return { unit: 'fal_billable_units', amount: Number(text.trim()) };
}

/** The documented fields of a status answer, without its URLs or logs. */
function storedFalStatus(status: FalQueueStatus): unknown {
  return storedAnswer({
    request_id: keptText(status.request_id, 128),
    status: keptText(status.status, 32),
    queue_position: keptNumber(status.queue_position),
    inference_time: keptNumber(status.metrics?.inference_time),
    error_type: providerCode(status.error_type),
  });
}
