import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapBetaError } from './beta-errors';
import { BETA_SUBMIT_PATH, BetaErrorBody, BetaQueryBody, betaQueryPath, buildBetaSubmitBody } from './beta-protocol';
import { mapBetaQuery } from './beta-query-mapping';
import type { BetaTaskRequest } from './beta-request';
import { ProviderCalls } from '../../upstream/provider-calls';

const SUBMIT_TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 15_000;
/** The provider rate-limits faster polling; a channel's poll_interval_ms is never honoured below this. */
export const BETA_MIN_POLL_INTERVAL_MS = 5_000;

/** Typical generation times (interface Limits): t2v, i2v, r2v 100 to 150 s; video-edit 180 to 250 s. */
const TYPICAL_MS = { default: 125_000, 'video-edit': 215_000 };

/**
 * The provider reports no progress figure: waiting upstream is 0 % (as the interface's state
 * table says), running grows with the time since submission against the typical duration.
 */
export function betaProgress(state: PollOutcome['state'], capability: string | undefined, elapsedMs: number): number | undefined {
  if (state === 'queued') return 0;
  if (state !== 'running') return undefined;
  const typical = capability === 'video-edit' ? TYPICAL_MS['video-edit'] : TYPICAL_MS.default;
  return Math.max(1, Math.min(95, Math.round((elapsedMs / typical) * 100)));
}

/** The submit: one POST with the body of the task's capability, answered with `output.task_id`. */
function betaCreate(task: UpstreamTask<BetaTaskRequest>): ProviderCreate {
  return {
    path: BETA_SUBMIT_PATH,
    timeoutMs: SUBMIT_TIMEOUT_MS,
    body: buildBetaSubmitBody(task.request, task.upstreamModel),
    taskIdOf: (answer) => (answer as BetaQueryBody | undefined)?.output?.task_id,
  };
}

/** Family B wire protocol: async submit with `X-DashScope-Async: enable`, task query by id. */
@Injectable()
export class BetaUpstreamAdapter extends BearerJsonTaskAdapter<BetaErrorBody, BetaTaskRequest> {
  readonly platform = 'beta' as const;
  readonly defaultPollIntervalMs = 10_000;
  readonly minPollIntervalMs = BETA_MIN_POLL_INTERVAL_MS;
  /** t2v/i2v/r2v typically take 100 to 150 s (poll() estimates progress itself, per model). */
  readonly expectedDurationMs = TYPICAL_MS.default;

  constructor(calls: ProviderCalls) {
    // Every call is Bearer JSON; a submit also asks for async processing. The signed URL lasts about 24 h.
    super(calls, {
      provider: 'family B',
      postHeaders: { 'X-DashScope-Async': 'enable' },
      mapError: mapBetaError,
      queryPath: betaQueryPath,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      probeTaskId: 'gateway-connectivity-probe',
      mapQuery: mapBetaQuery,
    });
  }

  protected async creation(task: UpstreamTask<BetaTaskRequest>): Promise<ProviderCreate> {
    return betaCreate(task);
  }

  async poll(task: UpstreamTask<BetaTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const outcome = await this.query(task, channel);
    const elapsed = this.calls.clock.now() - (task.submitTime ?? task.createdAt);
    return { ...outcome, progress: betaProgress(outcome.state, task.request.capability, elapsed) };
  }
}
