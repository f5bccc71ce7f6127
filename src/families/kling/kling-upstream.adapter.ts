import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { CALLBACK_URL_IN_BODY, type ProviderPush } from '../../upstream/push/provider-push';
import { mapKlingError } from './kling-errors';
import { KlingInputImages } from './kling-input-images.service';
import { klingKeyPair, signKlingJwt } from './kling-jwt';
import { buildKlingBody, klingCreatePath, KlingEnvelope, klingQueryPath, KlingTaskRequest } from './kling-protocol';
import { mapKlingQuery } from './kling-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const PROBE_TASK_ID = '0';
/** Kling's "resource not found": for the probe's made-up id, proof that the key works. */
const KLING_TASK_NOT_FOUND = '1203';

/** `Bearer <JWT>` signed with the channel's secret key; the provider checks it against its own clock, so real time. */
function klingAuthorization(channel: ChannelEntity): string {
  const pair = klingKeyPair(channel.apiKey);
  if (!pair) throw new UpstreamError('channel', 'the channel api_key must be <access_key>:<secret_key>');
  return `Bearer ${signKlingJwt(pair.accessKey, pair.secretKey, Date.now())}`;
}

const KLING_PROFILE: BearerJsonTaskProfile<KlingEnvelope, KlingTaskRequest> = {
  platform: 'kling',
  provider: 'Kling',
  defaultPollIntervalMs: 10_000,
  expectedDurationMs: 180_000,
  authHeaders: (channel) => ({ Authorization: klingAuthorization(channel) }),
  mapError: mapKlingError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: (answer) => (answer as KlingEnvelope).data?.task_id },
  // The probe's made-up id is queried on the text2video path.
  queryPath: (id, request) => klingQueryPath(request?.endpoint ?? 'text2video', id),
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: PROBE_TASK_ID,
  isUnknownTask: (error) => error.details.upstreamCode === KLING_TASK_NOT_FOUND,
  mapQuery: mapKlingQuery,
};

/**
 * Kling: submit `POST /v1/videos/{text2video|image2video}`, follow `GET` of the same path and the
 * task id, download the first video's CDN URL (no key needed; a query hands it out again, Kling keeps videos 30 days). Every call carries a fresh HS256 JWT.
 */
@Injectable()
export class KlingUpstreamAdapter extends BearerJsonTaskAdapter<KlingEnvelope, KlingTaskRequest> {
  /** `callback_url` in the create body; Kling documents no signature, the URL's token binds the callback to its task. */
  readonly push: ProviderPush = CALLBACK_URL_IN_BODY;

  /** The raw base64 of an image held for the submit (by its digest). */
  private readonly base64Of: (sha256: string) => string;

  constructor(calls: ProviderCalls, images: KlingInputImages) {
    super(calls, KLING_PROFILE);
    this.base64Of = (sha256) => images.base64(sha256);
  }

  /** One POST to the task's endpoint (text2video, image2video or omni-video), within the submit's deadline. */
  protected creation({ request, upstreamModel }: UpstreamTask<KlingTaskRequest>): Promise<ProviderCreate> {
    return Promise.resolve({ path: klingCreatePath(request.endpoint), body: buildKlingBody(request, upstreamModel, this.base64Of) });
  }
}
