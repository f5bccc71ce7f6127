import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { CancellableState } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapGammaError } from './gamma-errors';
import { buildGammaSubmitBody, GAMMA_TASKS_PATH, GammaErrorBody, GammaTaskRequest, gammaTaskPath } from './gamma-protocol';
import { mapGammaQuery } from './gamma-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';

const SUBMIT_TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 15_000;

function gammaCreate(task: UpstreamTask<GammaTaskRequest>): ProviderCreate {
  return {
    path: GAMMA_TASKS_PATH,
    timeoutMs: SUBMIT_TIMEOUT_MS,
    body: buildGammaSubmitBody(task.request, task.upstreamModel),
    taskIdOf: (answer) => (answer as { id?: unknown }).id,
  };
}

/** Family C data plane: `POST /api/v3/contents/generations/tasks`, then query by id, `DELETE` it to cancel (Bearer auth). */
@Injectable()
export class GammaUpstreamAdapter extends BearerJsonTaskAdapter<GammaErrorBody, GammaTaskRequest> {
  readonly platform = 'gamma' as const;
  readonly defaultPollIntervalMs = 10_000;
  /** A 5 s clip typically takes one to two minutes. */
  readonly expectedDurationMs = 90_000;

  constructor(calls: ProviderCalls) {
    // The provider's video URL is temporary; a fresh query hands out a new one.
    super(calls, {
      provider: 'family C',
      mapError: mapGammaError,
      queryPath: gammaTaskPath,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      probeTaskId: 'cgt-gateway-connectivity-probe',
      mapQuery: mapGammaQuery,
    });
  }

  protected async creation(task: UpstreamTask<GammaTaskRequest>): Promise<ProviderCreate> {
    return gammaCreate(task);
  }

  /** The provider cancels a task only while it is still `queued`; a running one it refuses. */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** `DELETE` of the task: `{}` once cancelled; an error answer (a running task) is an UpstreamError. */
  async cancel(task: UpstreamTask<GammaTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'DELETE', gammaTaskPath(upstreamTaskIdOf(task)), QUERY_TIMEOUT_MS, { task });
  }
}
