import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapRunwayError, RUNWAY_TASK_NOT_FOUND } from './runway-errors';
import { RunwayInputImages } from './runway-input-images.service';
import { buildRunwayBody, RUNWAY_HEADERS, RunwayErrorBody, runwaySubmitPath, runwayTaskPath } from './runway-protocol';
import type { RunwayTaskRequest } from './runway-request';
import { mapRunwayTask } from './runway-task-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const RUNWAY_PROFILE: BearerJsonTaskProfile<RunwayErrorBody, RunwayTaskRequest> = {
  platform: 'runway',
  provider: 'Runway',
  // The SDK polls every 6 s; Runway asks for no more than one query per 5 s.
  defaultPollIntervalMs: 6_000,
  minPollIntervalMs: 5_000,
  expectedDurationMs: 90_000,
  headers: RUNWAY_HEADERS,
  mapError: mapRunwayError,
  // Runway's task ids are 1 to 128 characters: what the default isTaskId takes.
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: (answer) => (answer as { id?: unknown }).id },
  queryPath: runwayTaskPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: '00000000-0000-0000-0000-000000000000',
  isUnknownTask: (error) => error.details.upstreamCode === RUNWAY_TASK_NOT_FOUND,
  mapQuery: mapRunwayTask,
};

/**
 * Runway's API: Bearer key plus `X-Runway-Version` on every call; submit to text_to_video or
 * image_to_video, follow `GET /v1/tasks/{id}`, download the signed `output[0]` (no key needed),
 * cancel with `DELETE /v1/tasks/{id}`.
 */
@Injectable()
export class RunwayUpstreamAdapter extends BearerJsonTaskAdapter<RunwayErrorBody, RunwayTaskRequest> {
  constructor(
    calls: ProviderCalls,
    private readonly images: RunwayInputImages,
  ) {
    super(calls, RUNWAY_PROFILE);
  }

  /** One POST to the endpoint of the task's mode, within the submit's deadline. */
  protected async creation(task: UpstreamTask<RunwayTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    return { path: runwaySubmitPath(request), body: buildRunwayBody(request, task.upstreamModel, (ref) => this.images.uri(ref)) };
  }

  /** Runway cancels a PENDING, THROTTLED or RUNNING task (and deletes one in any other state: callers ask only while it runs). */
  async cancel(task: UpstreamTask<RunwayTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'DELETE', runwayTaskPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }
}
