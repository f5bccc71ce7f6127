import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
import { succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { providerCode } from '../../upstream/provider-text';
import { CancellableState, PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import type { KeyObject } from 'node:crypto';
import type { UpstreamTask } from '../../upstream/upstream-task';
import type { ProviderPush } from '../../upstream/push/provider-push';
import { CachedKeys } from '../../upstream/push/cached-keys';
import { falJwksUrlOf } from './fal-push-settings';
import type { EndpointInputSchema } from '../../upstream/endpoint-input-schema';
import { readPublicJson } from '../../upstream/public-json';
import { falInputSchema } from '../shared/endpoint-schema';
import { falPublicKeys, falWebhookSigned } from './fal-webhook-signature';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { hostedInput } from '../shared/hosted-drafts';
import type { HostedTaskRequest } from '../shared/hosted-request-rules';
import { falFailedResult, mapFalError } from './fal-errors';
import {
  falAuthorization,
  falCancelPath,
  FalEndpoint,
  falEndpointOf,
  falOpenApiUrl,
  FalErrorBody,
  FalQueueStatus,
  falResultPath,
  falStatusPath,
  falSubmitPath,
  FalSubmitAnswer,
  mapFalResult,
  readFalStatus,
} from './fal-protocol';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

/** How long fal's JWKS is kept (fal: cache it for at most 24 hours). */
const JWKS_KEPT_MS = 12 * 3_600_000;

/** An app and request id that cannot exist, asked by the connectivity probe. */
const PROBE_ENDPOINT: FalEndpoint = { id: 'fal-ai/gateway-probe', app: 'fal-ai/gateway-probe' };
const PROBE_REQUEST_ID = '00000000-0000-0000-0000-000000000000';

/** `Key <key_id>:<key_secret>`; an api_key of another shape is the channel's fault. */
function falAuthHeaders(channel: ChannelEntity): Record<string, string> {
  const authorization = falAuthorization(channel.apiKey);
  if (!authorization) throw new UpstreamError('channel', 'the channel api_key must be <key_id>:<key_secret>');
  return { Authorization: authorization };
}

const FAL_PROFILE: BearerJsonProfile<FalErrorBody> = {
  platform: 'fal',
  provider: 'fal',
  defaultPollIntervalMs: 5_000,
  expectedDurationMs: 120_000,
  authHeaders: falAuthHeaders,
  mapError: mapFalError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: (answer) => (answer as FalSubmitAnswer).request_id },
};

/**
 * fal's queue API, one protocol for every endpoint: submit `POST /{endpoint id}` with the
 * endpoint's input as the body; follow `GET /{owner}/{alias}/requests/{id}/status` (the app, never
 * the endpoint's subpath); once COMPLETED, `GET /{owner}/{alias}/requests/{id}` is the result (the
 * video at the route's output path, `x-fal-billable-units` its cost) or the stored error (422
 * `content_policy_violation`: moderation). Cancel: `PUT .../cancel` while IN_QUEUE. The URLs are
 * built from the channel's base_url, never followed from an answer (the key would go with them).
 */
@Injectable()
export class FalUpstreamAdapter extends BearerJsonAdapter<FalErrorBody, HostedTaskRequest> {
  /** fal's public keys by JWKS URL, read at most once a day (fal's advice). */
  private readonly jwks = new CachedKeys<KeyObject[]>(JWKS_KEPT_MS, () => this.calls.clock.now());

  /** `fal_webhook` query parameter on the submit; fal signs with ED25519, its keys from the channel's JWKS URL. */
  readonly push: ProviderPush = {
    ask: (create, callbackUrl) => ({ ...create, path: `${create.path}?fal_webhook=${encodeURIComponent(callbackUrl)}` }),
    verify: async (callback, channel) => {
      const url = falJwksUrlOf(channel);
      const keys = await this.jwks.get(url, () => this.readJwks(url));
      return falWebhookSigned(keys, callback.headers, callback.rawBody, Math.floor(this.calls.clock.now() / 1000));
    },
  };

  constructor(
    calls: ProviderCalls,
    private readonly images: HostedImageInputs,
  ) {
    super(calls, FAL_PROFILE);
  }

  /** fal removes a request still IN_QUEUE; one IN_PROGRESS gets a signal its app may ignore, so the gateway does not promise it. */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** One POST of the endpoint's input (the task's mode picked the endpoint). */
  protected async creation(task: UpstreamTask<HostedTaskRequest>): Promise<ProviderCreate> {
    return { path: falSubmitPath(endpointOf(task)), body: hostedInput(task.request, (ref) => this.images.uri(ref)) };
  }

  /** The status; once COMPLETED, the result decides: the video, or how the request failed. */
  async poll(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const endpoint = endpointOf(task);
    const id = upstreamTaskIdOf(task);
    const statusResponse = await this.call(channel, 'GET', falStatusPath(endpoint, id), QUERY_CALL_TIMEOUT_MS, { task });
    const reading = readFalStatus(statusResponse.data);
    if (!('completed' in reading))
      return { state: reading.state, ...(reading.state === 'queued' ? { progress: 0 } : {}), raw: reading.raw };
    try {
      const result = await this.call(channel, 'GET', falResultPath(endpoint, id), QUERY_CALL_TIMEOUT_MS, { task });
      return mapFalResult(result.data, task.request.output, result.headers['x-fal-billable-units'], reading.raw, this.linkPolicy(channel));
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      const statusErrorType = providerCode((statusResponse.data as FalQueueStatus).error_type);
      const failed = falFailedResult(error, statusErrorType, reading.raw);
      if (failed) return failed;
      // Stored but not readable yet: the request is still being finished.
      if (error.details.upstreamCode === 'result_not_ready') return { state: 'running', raw: reading.raw };
      throw error;
    }
  }

  /** fal's CDN links do not expire by default; asked again, the result hands out the same link. */
  async refreshVideoUrl(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.poll(task, channel));
  }

  /** `PUT .../cancel`: 202 CANCELLATION_REQUESTED; a request already done is a 400 ALREADY_COMPLETED (refused). */
  async cancel(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'PUT', falCancelPath(endpointOf(task), upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }

  /** The JWKS, with no key of the channel's (it is public). */
  private async readJwks(url: string): Promise<KeyObject[]> {
    const answer = await this.calls.http.axiosRef.get(url, { timeout: QUERY_CALL_TIMEOUT_MS, maxRedirects: 0, responseType: 'json' });
    const keys = falPublicKeys(answer.data);
    if (keys.length === 0) throw new UpstreamError('transient', 'the fal JWKS holds no Ed25519 key');
    return keys;
  }

  /**
   * The endpoint's OpenAPI document (public: no key goes with it), from fal.ai for fal's own queue host,
   * else from the channel's host (a proxy or the simulator serves it at the same path).
   */
  async inputSchema(channel: ChannelEntity, endpointId: string): Promise<EndpointInputSchema | null> {
    if (!falEndpointOf(endpointId)) return null;
    const answer = await readPublicJson(this.calls.http, falOpenApiUrl(channel.baseUrl), { endpoint_id: endpointId });
    return answer === null ? null : falInputSchema(answer, endpointId);
  }

  /** The status of a request that cannot exist: fal knows the key when it answers anything but 401/403. */
  async probe(channel: ChannelEntity): Promise<void> {
    try {
      await this.call(channel, 'GET', falStatusPath(PROBE_ENDPOINT, PROBE_REQUEST_ID), QUERY_CALL_TIMEOUT_MS);
    } catch (error) {
      const status = error instanceof UpstreamError ? error.details.httpStatus : undefined;
      if (status !== undefined && status !== 401 && status !== 403 && status < 500) return;
      throw error;
    }
  }
}

/** The endpoint the task was sent to: its route's id for the task's mode (or the channel's mapping). */
function endpointOf(task: UpstreamTask<HostedTaskRequest>): FalEndpoint {
  const endpoint = falEndpointOf(task.upstreamModel);
  if (!endpoint) throw new UpstreamError('channel', 'the model is routed to a fal endpoint id that is not <owner>/<alias>[/<path>]');
  return endpoint;
}
