import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
import { succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import type { ProviderPush } from '../../upstream/push/provider-push';
import { CachedKeys } from '../../upstream/push/cached-keys';
import { replicateWebhookSigned } from './replicate-webhook-signature';
import type { EndpointInputSchema } from '../../upstream/endpoint-input-schema';
import { replicateInputSchema } from '../shared/endpoint-schema';
import { hostedInput } from '../shared/hosted-drafts';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import type { HostedTaskRequest } from '../shared/hosted-request-rules';
import { mapReplicateError } from './replicate-errors';
import {
  mapReplicatePrediction,
  REPLICATE_ACCOUNT_PATH,
  REPLICATE_OUTPUT_LIFETIME_MS,
  replicateCancelPath,
  replicateCreate,
  ReplicateErrorBody,
  replicateModelOf,
  replicateModelPath,
  ReplicatePrediction,
  replicatePredictionPath,
} from './replicate-protocol';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

/** How long the webhook signing secret is kept before it is read again (a rotated secret is learnt within this). */
const SECRET_KEPT_MS = 3_600_000;
const REPLICATE_WEBHOOK_SECRET_PATH = '/v1/webhooks/default/secret';

/** The states of a prediction that has ended: a cancel sent then changes nothing. */
const ENDED = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

const REPLICATE_PROFILE: BearerJsonProfile<ReplicateErrorBody> = {
  platform: 'replicate',
  provider: 'Replicate',
  // replicate-javascript polls every 500 ms; a video takes minutes.
  defaultPollIntervalMs: 5_000,
  expectedDurationMs: 120_000,
  outputExpiresAfterMs: REPLICATE_OUTPUT_LIFETIME_MS,
  mapError: mapReplicateError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: (answer) => (answer as ReplicatePrediction).id },
};

/**
 * Replicate's predictions API, one protocol for every model: `Authorization: Bearer <token>`;
 * create `POST /v1/models/{owner}/{name}/predictions` (or `/v1/predictions` with a version) with
 * `{input}` as the route's input_map made it; follow `GET /v1/predictions/{id}`; the video is the
 * prediction's `output` (or the route's output path), which Replicate deletes after an hour, so
 * it is archived at once; cancel `POST /v1/predictions/{id}/cancel`.
 */
@Injectable()
export class ReplicateUpstreamAdapter extends BearerJsonAdapter<ReplicateErrorBody, HostedTaskRequest> {
  /** The account's webhook signing secret, read once per channel key (`GET /v1/webhooks/default/secret`). */
  private readonly secrets = new CachedKeys<string>(SECRET_KEPT_MS, () => this.calls.clock.now());

  /** `webhook` and `webhook_events_filter: ["completed"]` in the prediction; Replicate signs as Standard Webhooks do. */
  readonly push: ProviderPush = {
    ask: (create, callbackUrl) => ({
      ...create,
      body: { ...(create.body as Record<string, unknown>), webhook: callbackUrl, webhook_events_filter: ['completed'] },
    }),
    verify: async (callback, channel) => {
      const secret = await this.secrets.get(`${channel.id}:${channel.apiKey}`, () => this.webhookSecret(channel));
      return replicateWebhookSigned(secret, callback.headers, callback.rawBody, Math.floor(this.calls.clock.now() / 1000));
    },
  };

  constructor(
    calls: ProviderCalls,
    private readonly images: HostedImageInputs,
  ) {
    super(calls, REPLICATE_PROFILE);
  }

  /** One create of the route's model (its version when it names one). */
  protected async creation(task: UpstreamTask<HostedTaskRequest>): Promise<ProviderCreate> {
    const model = replicateModelOf(task.upstreamModel);
    if (!model) throw new UpstreamError('channel', 'the model is routed to a Replicate model that is not owner/name or owner/name:version');
    return replicateCreate(
      model,
      hostedInput(task.request, (ref) => this.images.uri(ref)),
    );
  }

  async poll(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const response = await this.call(channel, 'GET', replicatePredictionPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
    return mapReplicatePrediction(response.data, task.request.output, this.linkPolicy(channel));
  }

  /** The output link asked again (null once Replicate removed it, an hour after the prediction). */
  async refreshVideoUrl(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.poll(task, channel));
  }

  /** Replicate answers a cancel with the prediction; one that had ended stays as it was, which is a refusal. */
  async cancel(task: UpstreamTask<HostedTaskRequest>, channel: ChannelEntity): Promise<void> {
    const response = await this.call(channel, 'POST', replicateCancelPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
    const status = (response.data as ReplicatePrediction).status;
    if (status !== 'canceled' && typeof status === 'string' && ENDED.has(status))
      throw new UpstreamError('invalid_input', 'the prediction had ended already', { httpStatus: response.status, upstreamCode: status });
  }

  private async webhookSecret(channel: ChannelEntity): Promise<string> {
    const key = (await this.call(channel, 'GET', REPLICATE_WEBHOOK_SECRET_PATH, QUERY_CALL_TIMEOUT_MS)).data?.key;
    if (typeof key !== 'string' || !key.startsWith('whsec_'))
      throw new UpstreamError('transient', 'Replicate answered no webhook signing secret');
    return key;
  }

  /** The model's latest version's input schema (or the named version's), with the channel's token; null for a model Replicate does not have. */
  async inputSchema(channel: ChannelEntity, reference: string): Promise<EndpointInputSchema | null> {
    const model = replicateModelOf(reference);
    if (!model) return null;
    try {
      const { data } = await this.call(channel, 'GET', replicateModelPath(model), QUERY_CALL_TIMEOUT_MS);
      return replicateInputSchema(model.version === undefined ? data : { latest_version: data });
    } catch (error) {
      if (error instanceof UpstreamError && error.details.httpStatus === 404) return null;
      throw error;
    }
  }

  /** The token's own account: a cheap authenticated call. */
  async probe(channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'GET', REPLICATE_ACCOUNT_PATH, QUERY_CALL_TIMEOUT_MS);
  }
}
