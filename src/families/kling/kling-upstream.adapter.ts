import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapKlingError } from './kling-errors';
import { KlingInputImages } from './kling-input-images.service';
import { klingKeyPair, signKlingJwt } from './kling-jwt';
import { buildKlingBody, klingCreatePath, KlingEnvelope, klingQueryPath, KlingTaskRequest } from './kling-protocol';
import { mapKlingQuery } from './kling-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';

const SUBMIT_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 15_000;
const PROBE_TASK_ID = '0';
/** Kling's "resource not found": for the probe's made-up id, proof that the key works. */
const KLING_TASK_NOT_FOUND = '1203';

/** `Bearer <JWT>` signed with the channel's secret key; the provider checks it against its own clock, so real time. */
function klingAuthorization(channel: ChannelEntity): string {
  const pair = klingKeyPair(channel.apiKey);
  if (!pair) throw new UpstreamError('channel', 'the channel api_key must be <access_key>:<secret_key>');
  return `Bearer ${signKlingJwt(pair.accessKey, pair.secretKey, Date.now())}`;
}

/**
 * Kling: submit `POST /v1/videos/{text2video|image2video}`, follow `GET` of the same path and the
 * task id, download the first video's CDN URL (no key needed; a query hands it out again, Kling keeps videos 30 days). Every call carries a fresh HS256 JWT.
 */
@Injectable()
export class KlingUpstreamAdapter extends BearerJsonTaskAdapter<KlingEnvelope, KlingTaskRequest> {
  readonly platform = 'kling' as const;
  readonly defaultPollIntervalMs = 10_000;
  readonly expectedDurationMs = 180_000;

  constructor(
    calls: ProviderCalls,
    private readonly images: KlingInputImages,
  ) {
    super(calls, {
      provider: 'Kling',
      authHeaders: (channel) => ({ Authorization: klingAuthorization(channel) }),
      mapError: mapKlingError,
      // The probe's made-up id is queried on the text2video path.
      queryPath: (id, request) => klingQueryPath(request?.endpoint ?? 'text2video', id),
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      probeTaskId: PROBE_TASK_ID,
      isUnknownTask: (error) => error.details.upstreamCode === KLING_TASK_NOT_FOUND,
      mapQuery: mapKlingQuery,
    });
  }

  /** One POST to the endpoint of the task's mode, within the submit's deadline. */
  protected async creation(task: UpstreamTask<KlingTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    return {
      path: klingCreatePath(request.endpoint),
      timeoutMs: SUBMIT_TIMEOUT_MS,
      body: buildKlingBody(request, task.upstreamModel, (sha256) => this.images.base64(sha256)),
      taskIdOf: (answer) => (answer as KlingEnvelope).data?.task_id,
    };
  }
}
