import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';
import { ProviderCalls } from '../../upstream/provider-calls';
import type { CancellableState } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { mapWanError } from './wan-errors';
import {
  buildWanBody,
  WAN_ASYNC_HEADERS,
  WAN_CREATE_PATH,
  wanCancelPath,
  WanErrorBody,
  WanTaskAnswer,
  wanTaskIdOf,
  wanTaskPath,
  WanTaskRequest,
} from './wan-protocol';
import { mapWanQuery } from './wan-query-mapping';

const WAN_PROFILE: BearerJsonTaskProfile<WanErrorBody, WanTaskRequest> = {
  platform: 'wan',
  provider: 'DashScope',
  postHeaders: WAN_ASYNC_HEADERS,
  mapError: mapWanError,
  defaultPollIntervalMs: 10_000,
  // The notes: queued seconds to minutes, then 1 to 5 minutes running.
  expectedDurationMs: 180_000,
  // `video_url` lives 24 hours (an OSS link with Expires=).
  outputExpiresAfterMs: 24 * 3_600_000,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: wanCreatedTaskId },
  queryPath: wanTaskPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  // DashScope answers an id it never had with a 200 UNKNOWN: the key is proven, no generation started.
  probeTaskId: '00000000-0000-0000-0000-000000000000',
  mapQuery: mapWanQuery,
};

/** The create answer's task id; an answer carrying a `code` (new-api reads a 200 so) is that refusal, as DashScope's 400 would be. */
function wanCreatedTaskId(answer: unknown): string | undefined {
  const refused = (answer as WanTaskAnswer | undefined)?.code;
  if (typeof refused === 'string' && refused !== '') throw mapWanError(400, answer as WanErrorBody, undefined, 0);
  return wanTaskIdOf(answer);
}

/**
 * DashScope's video synthesis (Alibaba Model Studio; the channel's base_url picks the region):
 * Bearer key on every call; submit `POST /api/v1/services/aigc/video-generation/video-synthesis`
 * with `X-DashScope-Async: enable`, follow `GET /api/v1/tasks/{id}`, download `output.video_url`
 * (no key; 24 hours), cancel with `POST /api/v1/tasks/{id}/cancel` while PENDING. DashScope does not
 * call back for video: the gateway polls. `usage`'s billed seconds are the provider's usage.
 */
@Injectable()
export class WanUpstreamAdapter extends BearerJsonTaskAdapter<WanErrorBody, WanTaskRequest> {
  private readonly images: HostedImageInputs;

  constructor(calls: ProviderCalls, images: HostedImageInputs) {
    super(calls, WAN_PROFILE);
    this.images = images;
  }

  /** `POST /api/v1/tasks/{id}/cancel` (no body); a 2xx is the acceptance, the task reads `CANCELED` after. */
  async cancel(task: UpstreamTask<WanTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'POST', wanCancelPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }

  /** DashScope cancels only a PENDING task; a RUNNING one is never asked (the client gets 409 cancel_not_supported). */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** One POST of `{model, input, parameters}`, answered `{output: {task_id, task_status: "PENDING"}, request_id}`. */
  protected async creation(task: UpstreamTask<WanTaskRequest>): Promise<ProviderCreate> {
    return { path: WAN_CREATE_PATH, body: buildWanBody(task.request, task.upstreamModel, (image) => this.images.uri(image)) };
  }
}
