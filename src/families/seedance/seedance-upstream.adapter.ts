import { Injectable } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';
import { CALLBACK_URL_IN_BODY, type ProviderPush } from '../../upstream/push/provider-push';
import type { CancellableState } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { mapSeedanceError } from './seedance-errors';
import {
  arkModelId,
  arkPath,
  buildSeedanceBody,
  SEEDANCE_TASKS_PATH,
  SeedanceErrorBody,
  seedanceTaskIdOf,
  seedanceTaskPath,
  SeedanceTaskRequest,
} from './seedance-protocol';
import { mapSeedanceQuery } from './seedance-query-mapping';

type ArkMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A call's timeout and options, as BearerJsonAdapter.call takes them. */
type CallTail = [timeout: number, options?: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<SeedanceTaskRequest> }];

const SEEDANCE_PROFILE: BearerJsonTaskProfile<SeedanceErrorBody, SeedanceTaskRequest> = {
  platform: 'seedance',
  provider: 'Seedance',
  // new-api polls every 15 s; a 5 s 720p video takes one to three minutes.
  defaultPollIntervalMs: 10_000,
  expectedDurationMs: 120_000,
  // `content.video_url` is valid for 24 hours (upstream-protocols-wires.md 1.3).
  outputExpiresAfterMs: 24 * 3_600_000,
  mapError: mapSeedanceError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: seedanceTaskIdOf },
  queryPath: seedanceTaskPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: 'cgt-00000000000000-00000',
  // Ark's "no such task" for the probe's id proves the key (a wrong key is its 401 first).
  isUnknownTask: (error) => String(error.details.upstreamCode ?? '').startsWith('ResourceNotFound'),
  mapQuery: (body, policy) => mapSeedanceQuery(body, policy),
};

/**
 * Seedance over BytePlus ModelArk or Volcengine Ark (the same API; the channel's base_url chooses):
 * Bearer key; submit `POST /api/v3/contents/generations/tasks` (`{id}`), follow `GET .../tasks/{id}`,
 * download `content.video_url` (no key, 24 h). Cancel is `DELETE .../tasks/{id}`, which Ark honours
 * while the task is queued only. `usage.total_tokens` is the provider's usage. Ark calls back at the
 * `callback_url` of the create body with the task's JSON (unsigned: the token in the URL binds it).
 */
@Injectable()
export class SeedanceUpstreamAdapter extends BearerJsonTaskAdapter<SeedanceErrorBody, SeedanceTaskRequest> {
  readonly push: ProviderPush = CALLBACK_URL_IN_BODY;

  constructor(
    calls: ProviderCalls,
    private readonly images: UrlOrInlineImages,
  ) {
    super(calls, SEEDANCE_PROFILE);
  }

  /** One POST of the task's content, the model as the channel's region spells it. */
  protected async creation(task: UpstreamTask<SeedanceTaskRequest>, channel: ChannelEntity): Promise<ProviderCreate> {
    const { request } = task;
    const images = await Promise.all((request.images ?? []).map(({ image }) => this.images.wire(image)));
    const body = buildSeedanceBody(request, arkModelId(task.upstreamModel, channel.baseUrl), images);
    return { path: arkPath(channel.baseUrl, SEEDANCE_TASKS_PATH), body };
  }

  /** Ark cancels a queued task; a running one it refuses (a DELETE of a finished one would delete its record). */
  get cancelWhile(): readonly CancellableState[] {
    return ['queued'];
  }

  /** `DELETE .../tasks/{id}`: a queued task becomes `cancelled` (answered `{}`). */
  async cancel(task: UpstreamTask<SeedanceTaskRequest>, channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'DELETE', seedanceTaskPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }

  /** Every other call on the channel's base URL, with or without its `/api/v3`. */
  protected call(channel: ChannelEntity, method: ArkMethod, path: string, ...rest: CallTail): Promise<AxiosResponse> {
    return super.call(channel, method, arkPath(channel.baseUrl, path), ...rest);
  }
}
