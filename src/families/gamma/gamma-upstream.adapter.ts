import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { CancellableState } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapGammaError } from './gamma-errors';
import { buildGammaSubmitBody, GAMMA_TASKS_PATH, GammaErrorBody, GammaTaskRequest, gammaTaskPath } from './gamma-protocol';
import { mapGammaQuery } from './gamma-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const SUBMIT_TIMEOUT_MS = 30_000;

/** The provider's video URL is temporary; a fresh query hands out a new one. */
const GAMMA_PROFILE: BearerJsonTaskProfile<GammaErrorBody, GammaTaskRequest> = {
  platform: 'gamma',
  provider: 'family C',
  defaultPollIntervalMs: 10_000,
  // A 5 s clip typically takes one to two minutes.
  expectedDurationMs: 90_000,
  mapError: mapGammaError,
  create: { timeoutMs: SUBMIT_TIMEOUT_MS, taskIdOf: (answer) => (answer as { id?: unknown }).id },
  queryPath: gammaTaskPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: 'cgt-gateway-connectivity-probe',
  mapQuery: mapGammaQuery,
};

/** Family C data plane: `POST /api/v3/contents/generations/tasks`, then query by id, `DELETE` it to cancel (Bearer auth). */
@Injectable()
export class GammaUpstreamAdapter extends BearerJsonTaskAdapter<GammaErrorBody, GammaTaskRequest> {
  constructor(calls: ProviderCalls) {
    super(calls, GAMMA_PROFILE);
  }

  protected async creation(task: UpstreamTask<GammaTaskRequest>): Promise<ProviderCreate> {
    return { path: GAMMA_TASKS_PATH, body: buildGammaSubmitBody(task.request, task.upstreamModel) };
  }

  /** The provider cancels a task only while it is still `queued`; a running one it refuses. */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** `DELETE` of the task: `{}` once cancelled; an error answer (a running task) is an UpstreamError. */
  async cancel(task: UpstreamTask<GammaTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'DELETE', gammaTaskPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }
}
