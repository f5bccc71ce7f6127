import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapBetaError } from './beta-errors';
import { BETA_SUBMIT_PATH, BetaErrorBody, BetaQueryBody, betaQueryPath, buildBetaSubmitBody } from './beta-protocol';
import { mapBetaQuery } from './beta-query-mapping';
import type { BetaTaskRequest } from './beta-request';
import { ProviderCalls } from '../../upstream/provider-calls';
import { QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const SUBMIT_TIMEOUT_MS = 30_000;
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

/** Every call is Bearer JSON; a submit also asks for async processing. The signed URL lasts about 24 h. */
const BETA_PROFILE: BearerJsonTaskProfile<BetaErrorBody, BetaTaskRequest> = {
  platform: 'beta',
  provider: 'family B',
  defaultPollIntervalMs: 10_000,
  minPollIntervalMs: BETA_MIN_POLL_INTERVAL_MS,
  // t2v/i2v/r2v typically take 100 to 150 s (poll() estimates progress itself, per model).
  expectedDurationMs: TYPICAL_MS.default,
  postHeaders: { 'X-DashScope-Async': 'enable' },
  mapError: mapBetaError,
  // The submit is answered with `output.task_id`.
  create: { timeoutMs: SUBMIT_TIMEOUT_MS, taskIdOf: (answer) => (answer as BetaQueryBody | undefined)?.output?.task_id },
  queryPath: betaQueryPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: 'gateway-connectivity-probe',
  mapQuery: mapBetaQuery,
};

/** Family B wire protocol: async submit with `X-DashScope-Async: enable`, task query by id. */
@Injectable()
export class BetaUpstreamAdapter extends BearerJsonTaskAdapter<BetaErrorBody, BetaTaskRequest> {
  constructor(calls: ProviderCalls) {
    super(calls, BETA_PROFILE);
  }

  /** The submit: one POST with the body of the task's capability. */
  protected async creation(task: UpstreamTask<BetaTaskRequest>): Promise<ProviderCreate> {
    return { path: BETA_SUBMIT_PATH, body: buildBetaSubmitBody(task.request, task.upstreamModel) };
  }

  async poll(task: UpstreamTask<BetaTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const outcome = await this.query(task, channel);
    const elapsed = this.calls.clock.now() - (task.submitTime ?? task.createdAt);
    return { ...outcome, progress: betaProgress(outcome.state, task.request.capability, elapsed) };
  }
}
