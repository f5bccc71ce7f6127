import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { CancellableState, UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { CALLBACK_URL_IN_BODY, type ProviderPush } from '../../upstream/push/provider-push';
import { viduCallbackSigned } from './vidu-callback-signature';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { mapViduError, viduCode } from './vidu-errors';
import {
  buildViduBody,
  viduAuthorization,
  viduCancelPath,
  viduCreatePath,
  ViduErrorBody,
  viduQueryPath,
  ViduTask,
  ViduTaskRequest,
  viduTaskIdOf,
} from './vidu-protocol';
import { mapViduQuery, viduFailReason, viduUsage } from './vidu-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const PROBE_TASK_ID = '0';

/** The id of a created task; a task Vidu failed at once (new-api reads it so) is refused: moderation as such, anything else a fault of this attempt. */
function viduCreatedTaskId(answer: unknown): string | undefined {
  const task = answer as ViduTask;
  if (task.state === 'failed') {
    const code = viduCode(task.err_code);
    const reason = viduFailReason(code);
    throw new UpstreamError(reason.startsWith('content moderation') ? 'moderation' : 'transient', reason, { upstreamCode: code });
  }
  return viduTaskIdOf(task);
}

const VIDU_PROFILE: BearerJsonTaskProfile<ViduErrorBody, ViduTaskRequest> = {
  platform: 'vidu',
  provider: 'Vidu',
  defaultPollIntervalMs: 5_000,
  expectedDurationMs: 120_000,
  // Vidu's docs say a creation's link lasts 24 hours, older copies one hour: the shorter (docs/families.md, Vidu).
  outputExpiresAfterMs: 3_600_000,
  authHeaders: (channel) => ({ Authorization: viduAuthorization(channel.apiKey) }),
  mapError: mapViduError,
  // `credits` of the create answer is the provider's usage.
  create: {
    timeoutMs: CREATE_CALL_TIMEOUT_MS,
    taskIdOf: viduCreatedTaskId,
    providerUsageOf: (answer) => viduUsage((answer as ViduTask).credits),
  },
  queryPath: viduQueryPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: PROBE_TASK_ID,
  mapQuery: mapViduQuery,
};

/**
 * Vidu's ent/v2 API: `Authorization: Token <key>` on every call; submit to text2video, img2video or
 * start-end2video, follow `GET /ent/v2/tasks/{id}/creations`, download the first creation's link (no
 * key needed; short-lived), cancel with `POST /ent/v2/tasks/{id}/cancel`. `credits` in both answers
 * is the provider's usage.
 */
@Injectable()
export class ViduUpstreamAdapter extends BearerJsonTaskAdapter<ViduErrorBody, ViduTaskRequest> {
  /** `callback_url` in the create body; Vidu signs each callback with the API token that created the task. */
  readonly push: ProviderPush = {
    ...CALLBACK_URL_IN_BODY,
    verify: async (callback, channel) =>
      viduCallbackSigned(channel.apiKey, callback.pathAndQuery, callback.headers, this.calls.clock.now()),
  };

  constructor(
    calls: ProviderCalls,
    private readonly images: UrlOrInlineImages,
  ) {
    super(calls, VIDU_PROFILE);
  }

  /** Vidu cancels a task it has not started (`created`, `queueing`); past that it answers 400 (UNCONFIRMED which states it still stops). */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** One POST to the endpoint of the task's mode. */
  protected async creation(task: UpstreamTask<ViduTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    const images = await Promise.all((request.images ?? []).map((image) => this.images.wire(image)));
    return { path: viduCreatePath(request.endpoint), body: buildViduBody(request, task.upstreamModel, images) };
  }

  /** `POST /ent/v2/tasks/{id}/cancel` with the id in the body too, as Vidu's docs send it; `{}` is the acceptance. */
  async cancel(task: UpstreamTask<ViduTaskRequest>, channel: ChannelEntity): Promise<void> {
    const id = upstreamTaskIdOf(task);
    await this.call(channel, 'POST', viduCancelPath(id), QUERY_CALL_TIMEOUT_MS, { body: { id }, task });
  }

  /** A query of a task that cannot exist: Vidu's TaskNotFound (or a refusal of the id) proves the key, a 401 does not. */
  async probe(channel: ChannelEntity): Promise<void> {
    try {
      await this.call(channel, 'GET', viduQueryPath(PROBE_TASK_ID), QUERY_CALL_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof UpstreamError && (error.kind === 'invalid_input' || error.kind === 'backpressure')) return;
      if (error instanceof UpstreamError && ['TaskNotFound', 'CreationNotFound'].includes(String(error.details.upstreamCode))) return;
      throw error;
    }
  }
}
