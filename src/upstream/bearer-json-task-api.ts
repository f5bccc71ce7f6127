import type { HttpService } from '@nestjs/axios';
import type { AxiosResponse } from 'axios';
import { gatewayHopsHeader } from '../common/http/gateway-hops';
import type { UpstreamTask } from './upstream-task';
import type { ChannelEntity } from './channel.entity';
import { channelSecrets, MAX_PROVIDER_BODY_BYTES, sanitizeProviderText } from './provider-text';
import { transportError } from './transport-error';
import { acceptedWithoutId, PollOutcome, UpstreamError, UpstreamErrorKind } from './upstream-adapter';

/**
 * What families B and C share: a Bearer-authenticated JSON task API (submit, then query by id).
 * Paths, extra headers and the reading of error bodies stay in each family's adapter.
 */
export interface BearerJsonRequest {
  /** A DELETE may be answered with no body; a PUT (fal's cancel) carries none. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  timeout: number;
  /** JSON, or a FormData sent as multipart/form-data. */
  body?: unknown;
  /** Protocol headers sent after the JSON ones on a POST (e.g. an async switch). */
  postHeaders?: Record<string, string>;
  /** Protocol headers sent on every call (e.g. an API version). */
  headers?: Record<string, string>;
  /** Ends the call early (a submit whose task was taken over). */
  signal?: AbortSignal;
  /** The hops of the task's submit before this gateway (X-Gateway-Hops sends one more); 0 for a call about no task. */
  gatewayHops?: number;
  /** The provider's own credential headers (Gemini's `x-goog-api-key`, Kling's signed JWT), sent instead of `Authorization: Bearer <key>`. */
  authHeaders?: Record<string, string>;
  /** A 2xx with no body reads as `{}` (xAI's 202 while a video is still being made); otherwise it is transient. */
  emptyAnswers?: boolean;
  /** A larger cap than MAX_PROVIDER_BODY_BYTES, for an answer that may carry a video inline (Gemini Omni's). */
  maxBodyBytes?: number;
  /** The call that creates the provider's task: an answer lost after it went out, a 2xx that is not JSON, or a 504, may mean it was accepted. */
  createsTask?: boolean;
}

/** The family's reading of a non-2xx answer (its JSON body when there is one, and Retry-After). */
export type UpstreamErrorMapper<E> = (status: number, body: E | undefined, retryAfterHeader: unknown) => UpstreamError;

/**
 * One call, with X-Gateway-Hops: transport trouble and a 2xx body that is not JSON are transient, other statuses go to
 * `mapError`. `provider` names the family in messages; the channel's key, the provider's own text
 * and the transport error's text (addresses) never appear in one. Answers over
 * MAX_PROVIDER_BODY_BYTES are transient errors, and redirects are not followed.
 */
export async function callBearerJson<E>(
  http: HttpService,
  channel: ChannelEntity,
  request: BearerJsonRequest,
  provider: string,
  mapError: UpstreamErrorMapper<E>,
): Promise<AxiosResponse> {
  const { method, path, timeout, body } = request;
  const auth = request.authHeaders ?? { Authorization: `Bearer ${channel.apiKey}` };
  const headers: Record<string, string> = {
    ...auth,
    Accept: 'application/json',
    ...gatewayHopsHeader(request.gatewayHops),
    ...request.headers,
  };
  // A FormData body is multipart: axios writes its Content-Type with the boundary.
  if (method === 'POST')
    Object.assign(headers, body instanceof FormData ? {} : { 'Content-Type': 'application/json' }, request.postHeaders);
  let response: AxiosResponse;
  try {
    response = await http.axiosRef.request({
      method,
      url: `${channel.baseUrl}${path}`,
      data: body,
      headers,
      timeout,
      signal: request.signal,
      responseType: 'json',
      validateStatus: () => true,
      // A larger answer is cut off while it arrives (a transient error), never buffered whole.
      maxContentLength: request.maxBodyBytes ?? MAX_PROVIDER_BODY_BYTES,
      // A provider's redirect is not followed (it could point anywhere, the key along).
      maxRedirects: 0,
    });
  } catch (error) {
    // Transport trouble (timeout, refused, reset, too large), in words: the error's message names the address.
    throw transportError(`${provider} provider`, error, request.createsTask);
  }
  if (response.status >= 200 && response.status < 300) {
    if (method === 'DELETE') return response;
    if (request.emptyAnswers && (response.data === '' || response.data === undefined || response.data === null))
      return { ...response, data: {} };
    if (typeof response.data !== 'object' || response.data === null) {
      const message = 'the provider answered with a body that is not JSON';
      throw request.createsTask ? acceptedWithoutId(message) : new UpstreamError('transient', message);
    }
    return response;
  }
  const errorBody = typeof response.data === 'object' && response.data !== null ? (response.data as E) : undefined;
  const error = mapError(response.status, errorBody, response.headers['retry-after']);
  if (request.createsTask) markIfMayHaveBeenAccepted(error, response.status);
  // The mappers pass on codes only; a code that is the channel's key is still not repeated.
  const secrets = channelSecrets(channel);
  if (secrets.some((secret) => error.message.includes(secret))) error.message = sanitizeProviderText(error.message, secrets);
  throw error;
}

/**
 * A 504 to the create call is a proxy in front of the provider that stopped waiting: the request
 * went on, so the provider may have the task (any other status is the provider's own refusal).
 */
export function markIfMayHaveBeenAccepted(error: UpstreamError, httpStatus: number): void {
  if (httpStatus === 504) error.details.mayHaveBeenAccepted = true;
}

/** The provider's id of a submitted task; a task without one cannot be queried on this channel. */
export function upstreamTaskIdOf(task: Pick<UpstreamTask<unknown>, 'taskId' | 'upstreamTaskId'>): string {
  if (!task.upstreamTaskId) throw new UpstreamError('channel', `task ${task.taskId} has no upstream task id`);
  return task.upstreamTaskId;
}

/** The fresh video URL a query handed out, when the task succeeded. */
export function succeededVideoUrl(outcome: PollOutcome): string | null {
  return outcome.state === 'succeeded' ? (outcome.videoUrl ?? null) : null;
}

/**
 * Runs a query of a task id that cannot exist: any answer proves the key works without starting a
 * generation, and so does a refusal of the id itself (or throttling): the provider knows our key.
 * `provenBy` names the error kinds that count as such an answer; `isUnknownTask` recognises the
 * provider's own "no such task" (which its error mapping reads as a channel fault on a real task).
 * Any other failure is said in the words of what the operator can change: the key, the base URL.
 */
export async function probeWithUnknownTask(
  query: () => Promise<unknown>,
  provenBy: readonly UpstreamErrorKind[] = ['invalid_input', 'backpressure'],
  isUnknownTask: (error: UpstreamError) => boolean = () => false,
): Promise<void> {
  try {
    await query();
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    if (provenBy.includes(error.kind) || isUnknownTask(error)) return;
    throw probeFailure(error);
  }
}

/** A failed probe, naming the channel field at fault when the HTTP status says which. */
function probeFailure(error: UpstreamError): UpstreamError {
  const status = error.details.httpStatus;
  if (status === 401 || status === 403)
    return new UpstreamError('channel', `the provider refused the channel's api_key (${error.message})`, error.details);
  if (status === 404 || status === 405)
    return new UpstreamError('channel', `the base_url does not lead to the provider's API (${error.message})`, error.details);
  return error;
}

/** `Retry-After` in seconds (delta-seconds or an HTTP date), when the provider sent a usable one. */
export function parseRetryAfter(header: unknown, now: number): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Math.max(1, Number(header.trim()));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - now) / 1000));
}
