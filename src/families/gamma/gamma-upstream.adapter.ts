import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { TaskEntity } from '../../tasks/task.entity';
import { callBearerJson, probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { channelLinkPolicy } from '../../upstream/channel-link-policy';
import { callTimeoutMs, PollOutcome, SubmitDeadline, SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import { mapGammaError } from './gamma-errors';
import { buildGammaSubmitBody, GAMMA_TASKS_PATH, GammaErrorBody, GammaTaskRequest, gammaTaskPath } from './gamma-protocol';
import { mapGammaQuery } from './gamma-query-mapping';

const SUBMIT_TIMEOUT_MS = 30_000;
const QUERY_TIMEOUT_MS = 15_000;

/** Family C data plane: `POST /api/v3/contents/generations/tasks`, then query by id (Bearer auth). */
@Injectable()
export class GammaUpstreamAdapter implements UpstreamAdapter {
  readonly platform = 'gamma' as const;
  readonly defaultPollIntervalMs = 10_000;
  /** A 5 s clip typically takes one to two minutes. */
  readonly expectedDurationMs = 90_000;
  /** The provider does not de-duplicate submits: an interrupted submit is failed and refunded, never resent. */
  readonly idempotentSubmit = false;

  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  async submit(task: TaskEntity, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<SubmitOutcome> {
    const body = buildGammaSubmitBody(task.request as unknown as GammaTaskRequest, task.upstreamModel);
    const response = await this.call(channel, 'POST', GAMMA_TASKS_PATH, callTimeoutMs(SUBMIT_TIMEOUT_MS, deadline), body, deadline?.signal);
    const id = (response.data as { id?: unknown }).id;
    if (typeof id !== 'string' || !id) throw new UpstreamError('transient', 'the provider accepted the submit without an id');
    return { upstreamTaskId: id };
  }

  async poll(task: TaskEntity, channel: ChannelEntity): Promise<PollOutcome> {
    return mapGammaQuery(await this.query(task, channel), channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
  }

  /** The provider's video URL is temporary; a fresh query hands out a new one. */
  async refreshVideoUrl(task: TaskEntity, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(mapGammaQuery(await this.query(task, channel), channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts)));
  }

  /** Querying a task id that cannot exist proves the key works without generating anything. */
  async probe(channel: ChannelEntity): Promise<void> {
    await probeWithUnknownTask(() => this.call(channel, 'GET', gammaTaskPath('cgt-gateway-connectivity-probe'), QUERY_TIMEOUT_MS));
  }

  private async query(task: TaskEntity, channel: ChannelEntity): Promise<unknown> {
    return (await this.call(channel, 'GET', gammaTaskPath(upstreamTaskIdOf(task)), QUERY_TIMEOUT_MS)).data;
  }

  private call(channel: ChannelEntity, method: 'GET' | 'POST', path: string, timeout: number, body?: unknown, signal?: AbortSignal): Promise<AxiosResponse> {
    return callBearerJson<GammaErrorBody>(this.http, channel, { method, path, timeout, body, signal }, 'family C', mapGammaError);
  }
}
