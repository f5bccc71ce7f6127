import type { AxiosResponse } from 'axios';
import type { LinkPolicy } from '../common/urls/url-guard';
import { callBearerJson, probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from './bearer-json-task-api';
import type { ChannelEntity, Platform } from './channel.entity';
import { channelLinkPolicy } from './channel-link-policy';
import type { ProviderCalls } from './provider-calls';
import {
  acceptedWithoutId,
  callTimeoutMs,
  PollOutcome,
  ProviderUsage,
  SubmitDeadline,
  SubmitOutcome,
  UpstreamAdapter,
  UpstreamError,
} from './upstream-adapter';
import type { StoredRequest, UpstreamTask } from './upstream-task';

/** How one family speaks the Bearer JSON API: its name in messages, extra POST headers, its error reading. */
export interface BearerJsonProtocol<E> {
  /** Names the family in messages (`family B`). */
  provider: string;
  /** Protocol headers sent after the JSON ones on a POST (e.g. an async switch). */
  postHeaders?: Record<string, string>;
  /** Protocol headers sent on every call (e.g. an API version). */
  headers?: Record<string, string>;
  /** The provider's error, read with its HTTP status and `Retry-After` (a date is read against `now`). */
  mapError: (status: number, body: E | undefined, retryAfterHeader: unknown, now: number) => UpstreamError;
  /** The credential headers of a call on this channel; absent: `Authorization: Bearer <api_key>`. */
  authHeaders?(channel: ChannelEntity): Record<string, string>;
  /** A 2xx answer with no body reads as `{}` (xAI's 202 while a video is still being made). */
  emptyAnswers?: boolean;
}

/**
 * The one call that creates the provider's task: a POST of the task's body, answered with the
 * provider's id of it. Made only by BearerJsonAdapter.submit (see there), never by a family.
 */
export interface ProviderCreate {
  path: string;
  timeoutMs: number;
  body: unknown;
  /**
   * Where the answer carries the task id. A family's reading may throw the refusal a 2xx answer
   * states (MiniMax's `base_resp`, a task Vidu failed at once): the provider said no, so it is not accepted.
   */
  taskIdOf(answer: unknown): unknown;
  /** What a usable id looks like (default: a string of 1 to 128 characters). */
  isTaskId?(id: string): boolean;
  /** What the answer says the task costs the provider (Vidu's `credits`). */
  providerUsageOf?(answer: unknown): ProviderUsage | undefined;
}

const usableTaskId = (id: string): boolean => id.length > 0 && id.length <= 128;

/**
 * An adapter whose every call is Bearer JSON (families B, C, O, Kling, MiniMax, Runway): the model goes
 * upstream as it is, and the provider does not de-duplicate submits (an interrupted submit is failed
 * and refunded, never resent). `E` is the provider's error body, `R` the family's request.
 */
export abstract class BearerJsonAdapter<E, R extends StoredRequest> implements UpstreamAdapter<R> {
  abstract readonly platform: Platform;
  abstract readonly defaultPollIntervalMs: number;
  abstract readonly expectedDurationMs: number;
  readonly idempotentSubmit: boolean = false;

  protected constructor(
    protected readonly calls: ProviderCalls,
    private readonly protocol: BearerJsonProtocol<E>,
  ) {}

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  /**
   * Everything a submit does before its create call (uploads, the body): the create call itself is
   * the seam's (submit), so no family can make it without marking a lost answer as one that may
   * have been accepted.
   */
  protected abstract creation(task: UpstreamTask<R>, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<ProviderCreate>;

  abstract poll(task: UpstreamTask<R>, channel: ChannelEntity): Promise<PollOutcome>;

  /**
   * A submit: the family's creation, then its one create call, within the submit's deadline (and
   * stopped when its signal aborts). Whatever may mean the provider has the task (the call went out
   * and its answer was lost, timed out or cut off; a 2xx that is not JSON or has no usable id; a 504)
   * is marked as may have been accepted, and the task is never sent to another channel.
   * Families do not override it (src/upstream/provider-create.spec.ts checks every registered one).
   */
  async submit(task: UpstreamTask<R>, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<SubmitOutcome<R>> {
    const create = await this.creation(task, channel, deadline);
    const response = await this.send(channel, 'POST', create.path, callTimeoutMs(create.timeoutMs, deadline), {
      body: create.body,
      signal: deadline?.signal,
      task,
      createsTask: true,
    });
    const id = create.taskIdOf(response.data);
    if (typeof id !== 'string' || !(create.isTaskId ?? usableTaskId)(id))
      throw acceptedWithoutId('the provider accepted the submit without a usable task id');
    const providerUsage = create.providerUsageOf?.(response.data);
    return { upstreamTaskId: id, ...(providerUsage ? { providerUsage } : {}) };
  }

  /** The channel's rules for links the provider hands out. */
  protected linkPolicy(channel: ChannelEntity): LinkPolicy {
    return channelLinkPolicy(channel, this.calls.config.mediaAllowPrivateHosts);
  }

  /**
   * A call about `task` (if any) tells the upstream how many gateways its submit passed through.
   * Never the create call: that is submit's alone.
   */
  protected call(
    channel: ChannelEntity,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    timeout: number,
    options: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<R> } = {},
  ): Promise<AxiosResponse> {
    return this.send(channel, method, path, timeout, options);
  }

  private send(
    channel: ChannelEntity,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    timeout: number,
    options: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<R>; createsTask?: boolean },
  ): Promise<AxiosResponse> {
    const { provider, postHeaders, headers, mapError, authHeaders, emptyAnswers } = this.protocol;
    const { body, signal, task, createsTask } = options;
    const request = {
      method,
      path,
      timeout,
      body,
      postHeaders,
      headers,
      signal,
      gatewayHops: task?.gatewayHops,
      authHeaders: authHeaders?.(channel),
      emptyAnswers,
      createsTask,
    };
    const { http, clock } = this.calls;
    return callBearerJson<E>(http, channel, request, provider, (status, body, retryAfter) =>
      mapError(status, body, retryAfter, clock.now()),
    );
  }
}

/** How a family queries one task by id (families B and C, Kling, Runway, Vidu, xAI). */
export interface BearerJsonTaskProtocol<E, R extends StoredRequest = StoredRequest> extends BearerJsonProtocol<E> {
  /** The query of a task; `request` is the task's (absent for the probe's id, which belongs to no task). */
  queryPath(upstreamTaskId: string, request?: R): string;
  queryTimeoutMs: number;
  /** A task id that cannot exist, queried by the connectivity probe. */
  probeTaskId: string;
  /** The provider's "no such task" for the probe's id (it proves the key works); by default none is. */
  isUnknownTask?(error: UpstreamError): boolean;
  /** The family's reading of a query's answer (and of its 2xx status, where the provider says something with it). */
  mapQuery(body: unknown, policy: LinkPolicy, httpStatus: number): PollOutcome;
}

/**
 * A Bearer JSON API whose tasks are queried by id: poll and refresh query the task (its video URL
 * is temporary, a fresh query hands out a new one), the probe queries a task id that cannot exist.
 */
export abstract class BearerJsonTaskAdapter<E, R extends StoredRequest> extends BearerJsonAdapter<E, R> {
  protected constructor(
    calls: ProviderCalls,
    private readonly taskProtocol: BearerJsonTaskProtocol<E, R>,
  ) {
    super(calls, taskProtocol);
  }

  async poll(task: UpstreamTask<R>, channel: ChannelEntity): Promise<PollOutcome> {
    return this.query(task, channel);
  }

  async refreshVideoUrl(task: UpstreamTask<R>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.query(task, channel));
  }

  /** Querying a task id that cannot exist proves the key works without starting any generation. */
  async probe(channel: ChannelEntity): Promise<void> {
    const { queryPath, probeTaskId, queryTimeoutMs, isUnknownTask } = this.taskProtocol;
    await probeWithUnknownTask(() => this.call(channel, 'GET', queryPath(probeTaskId), queryTimeoutMs), undefined, isUnknownTask);
  }

  /** The task's query, read by the family's mapper. */
  protected async query(task: UpstreamTask<R>, channel: ChannelEntity): Promise<PollOutcome> {
    const { queryPath, queryTimeoutMs, mapQuery } = this.taskProtocol;
    const response = await this.call(channel, 'GET', queryPath(upstreamTaskIdOf(task), task.request), queryTimeoutMs, { task });
    return mapQuery(response.data, this.linkPolicy(channel), response.status);
  }
}
