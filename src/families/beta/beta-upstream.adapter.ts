import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { Clock } from '../../common/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { TaskEntity } from '../../tasks/task.entity';
import { callBearerJson, probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { channelLinkPolicy } from '../../upstream/channel-link-policy';
import { callTimeoutMs, PollOutcome, SubmitDeadline, SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import { mapBetaError } from './beta-errors';
import { BETA_SUBMIT_PATH, BetaErrorBody, BetaQueryBody, betaQueryPath, buildBetaSubmitBody } from './beta-protocol';
import { mapBetaQuery } from './beta-query-mapping';
import type { BetaTaskRequest } from './beta-request';

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

/** Family B wire protocol: async submit with `X-DashScope-Async: enable`, task query by id. */
@Injectable()
export class BetaUpstreamAdapter implements UpstreamAdapter {
  readonly platform = 'beta' as const;
  readonly defaultPollIntervalMs = 10_000;
  readonly minPollIntervalMs = BETA_MIN_POLL_INTERVAL_MS;
  /** t2v/i2v/r2v typically take 100 to 150 s (poll() estimates progress itself, per model). */
  readonly expectedDurationMs = TYPICAL_MS.default;
  /** The provider does not de-duplicate submits: an interrupted submit is failed and refunded, never resent. */
  readonly idempotentSubmit = false;

  constructor(
    private readonly http: HttpService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  async submit(task: TaskEntity, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<SubmitOutcome> {
    const body = buildBetaSubmitBody(task.request as unknown as BetaTaskRequest, task.upstreamModel);
    const response = await this.call(channel, 'POST', BETA_SUBMIT_PATH, callTimeoutMs(SUBMIT_TIMEOUT_MS, deadline), body, deadline?.signal);
    const upstreamTaskId = (response.data as BetaQueryBody | undefined)?.output?.task_id;
    if (typeof upstreamTaskId !== 'string' || !upstreamTaskId) {
      throw new UpstreamError('transient', 'the provider accepted the submit without an output.task_id');
    }
    return { upstreamTaskId };
  }

  async poll(task: TaskEntity, channel: ChannelEntity): Promise<PollOutcome> {
    const outcome = mapBetaQuery(await this.query(task, channel), channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
    const elapsed = this.clock.now() - (task.submitTime ?? task.createdAt);
    return { ...outcome, progress: betaProgress(outcome.state, (task.request as Partial<BetaTaskRequest>).capability, elapsed) };
  }

  /** The stored signed URL lasts about 24 h; a fresh query hands out a new one. */
  async refreshVideoUrl(task: TaskEntity, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(mapBetaQuery(await this.query(task, channel), channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts)));
  }

  /** Querying a task id that cannot exist proves the key works without starting any generation. */
  async probe(channel: ChannelEntity): Promise<void> {
    await probeWithUnknownTask(() => this.call(channel, 'GET', betaQueryPath('gateway-connectivity-probe'), QUERY_TIMEOUT_MS));
  }

  private async query(task: TaskEntity, channel: ChannelEntity): Promise<unknown> {
    return (await this.call(channel, 'GET', betaQueryPath(upstreamTaskIdOf(task)), QUERY_TIMEOUT_MS)).data;
  }

  /** Every call is Bearer JSON; a submit also asks for async processing. */
  private call(channel: ChannelEntity, method: 'GET' | 'POST', path: string, timeout: number, body?: unknown, signal?: AbortSignal): Promise<AxiosResponse> {
    return callBearerJson<BetaErrorBody>(
      this.http,
      channel,
      { method, path, timeout, body, postHeaders: { 'X-DashScope-Async': 'enable' }, signal },
      'family B',
      (status, errorBody, retryAfter) => mapBetaError(status, errorBody, retryAfter, this.clock.now()),
    );
  }
}
