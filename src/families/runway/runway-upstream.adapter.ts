import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapRunwayError, RUNWAY_TASK_NOT_FOUND } from './runway-errors';
import { RunwayInputImages } from './runway-input-images.service';
import { buildRunwayBody, RUNWAY_HEADERS, RunwayErrorBody, runwaySubmitPath, runwayTaskPath } from './runway-protocol';
import type { RunwayTaskRequest } from './runway-request';
import { mapRunwayTask } from './runway-task-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';

const SUBMIT_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 15_000;
const MAX_TASK_ID_LENGTH = 128;

/**
 * Runway's API: Bearer key plus `X-Runway-Version` on every call; submit to text_to_video or
 * image_to_video, follow `GET /v1/tasks/{id}`, download the signed `output[0]` (no key needed),
 * cancel with `DELETE /v1/tasks/{id}`.
 */
@Injectable()
export class RunwayUpstreamAdapter extends BearerJsonTaskAdapter<RunwayErrorBody, RunwayTaskRequest> {
  readonly platform = 'runway' as const;
  /** The SDK polls every 6 s; Runway asks for no more than one query per 5 s. */
  readonly defaultPollIntervalMs = 6_000;
  readonly minPollIntervalMs = 5_000;
  readonly expectedDurationMs = 90_000;

  constructor(
    calls: ProviderCalls,
    private readonly images: RunwayInputImages,
  ) {
    super(calls, {
      provider: 'Runway',
      headers: RUNWAY_HEADERS,
      mapError: mapRunwayError,
      queryPath: runwayTaskPath,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      probeTaskId: '00000000-0000-0000-0000-000000000000',
      isUnknownTask: (error) => error.details.upstreamCode === RUNWAY_TASK_NOT_FOUND,
      mapQuery: mapRunwayTask,
    });
  }

  /** One POST to the endpoint of the task's mode, within the submit's deadline. */
  protected async creation(task: UpstreamTask<RunwayTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    return {
      path: runwaySubmitPath(request),
      timeoutMs: SUBMIT_TIMEOUT_MS,
      body: buildRunwayBody(request, task.upstreamModel, (ref) => this.images.uri(ref)),
      taskIdOf: (answer) => (answer as { id?: unknown }).id,
      isTaskId: (id) => id.length > 0 && id.length <= MAX_TASK_ID_LENGTH,
    };
  }

  /** Runway cancels a PENDING, THROTTLED or RUNNING task (and deletes one in any other state: callers ask only while it runs). */
  async cancel(task: UpstreamTask<RunwayTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'DELETE', runwayTaskPath(upstreamTaskIdOf(task)), QUERY_TIMEOUT_MS, { task });
  }
}
