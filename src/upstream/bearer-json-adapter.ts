import type { AxiosResponse } from 'axios';
import type { LinkPolicy } from '../common/urls/url-guard';
import { callBearerJson, probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from './bearer-json-task-api';
import type { BearerJsonProfile, BearerJsonTaskProfile } from './bearer-json-profile';
import type { ChannelEntity, Platform } from './channel.entity';
import { channelLinkPolicy } from './channel-link-policy';
import type { ProviderCalls } from './provider-calls';
import { acceptedWithoutId, callTimeoutMs, PollOutcome, SubmitDeadline, SubmitOutcome, UpstreamAdapter } from './upstream-adapter';
import type { StoredRequest, UpstreamTask } from './upstream-task';
import type { CreateCall, ProviderPush } from './push/provider-push';

/**
 * The one call that creates the provider's task: a POST of the task's body, answered with the
 * provider's id of it (read as the family's profile says: BearerJsonProfile.create). Made only by
 * BearerJsonAdapter.submit (see there), never by a family.
 */
export type ProviderCreate = CreateCall;

const usableTaskId = (id: string): boolean => id.length > 0 && id.length <= 128;

/**
 * An adapter whose every call is Bearer JSON (families B, C, O, Kling, MiniMax, Runway): the model goes
 * upstream as it is, and the provider does not de-duplicate submits (an interrupted submit is failed
 * and refunded, never resent). `E` is the provider's error body, `R` the family's request. What
 * differs between families but not between tasks comes in the family's profile (BearerJsonProfile).
 */
export abstract class BearerJsonAdapter<E, R extends StoredRequest> implements UpstreamAdapter<R> {
  readonly platform: Platform;
  readonly defaultPollIntervalMs: number;
  readonly minPollIntervalMs?: number;
  readonly expectedDurationMs: number;
  readonly outputExpiresAfterMs?: number;
  readonly idempotentSubmit: boolean = false;
  readonly push?: ProviderPush;

  protected constructor(
    protected readonly calls: ProviderCalls,
    private readonly profile: BearerJsonProfile<E>,
  ) {
    this.platform = profile.platform;
    this.defaultPollIntervalMs = profile.defaultPollIntervalMs;
    this.minPollIntervalMs = profile.minPollIntervalMs;
    this.expectedDurationMs = profile.expectedDurationMs;
    this.outputExpiresAfterMs = profile.outputExpiresAfterMs;
  }

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
   * Families do not override it (src/families/create-call.spec.ts checks every registered one).
   */
  async submit(task: UpstreamTask<R>, channel: ChannelEntity, deadline?: SubmitDeadline, callbackUrl?: string): Promise<SubmitOutcome<R>> {
    const created = await this.creation(task, channel, deadline);
    // Push on: the family's way of asking its provider to call back, on the one create call.
    const { path, body } = callbackUrl && this.push ? this.push.ask(created, callbackUrl) : created;
    const { timeoutMs, taskIdOf, isTaskId, providerUsageOf } = this.profile.create;
    const response = await this.send(channel, 'POST', path, callTimeoutMs(timeoutMs, deadline), {
      body,
      signal: deadline?.signal,
      task,
      createsTask: true,
    });
    const id = taskIdOf(response.data);
    if (typeof id !== 'string' || !(isTaskId ?? usableTaskId)(id))
      throw acceptedWithoutId('the provider accepted the submit without a usable task id');
    const providerUsage = providerUsageOf?.(response.data);
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
    options: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<R>; maxBodyBytes?: number } = {},
  ): Promise<AxiosResponse> {
    return this.send(channel, method, path, timeout, options);
  }

  private send(
    channel: ChannelEntity,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    timeout: number,
    options: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<R>; createsTask?: boolean; maxBodyBytes?: number },
  ): Promise<AxiosResponse> {
    const { provider, postHeaders, headers, mapError, authHeaders, emptyAnswers } = this.profile;
    const { body, signal, task, createsTask, maxBodyBytes } = options;
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
      maxBodyBytes,
    };
    const { http, clock } = this.calls;
    return callBearerJson<E>(http, channel, request, provider, (status, body, retryAfter) =>
      mapError(status, body, retryAfter, clock.now()),
    );
  }
}

/**
 * A Bearer JSON API whose tasks are queried by id: poll and refresh query the task (its video URL
 * is temporary, a fresh query hands out a new one), the probe queries a task id that cannot exist.
 */
export abstract class BearerJsonTaskAdapter<E, R extends StoredRequest> extends BearerJsonAdapter<E, R> {
  protected constructor(
    calls: ProviderCalls,
    private readonly taskProfile: BearerJsonTaskProfile<E, R>,
  ) {
    super(calls, taskProfile);
  }

  async poll(task: UpstreamTask<R>, channel: ChannelEntity): Promise<PollOutcome> {
    return this.query(task, channel);
  }

  async refreshVideoUrl(task: UpstreamTask<R>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.query(task, channel));
  }

  /** Querying a task id that cannot exist proves the key works without starting any generation. */
  async probe(channel: ChannelEntity): Promise<void> {
    const { queryPath, probeTaskId, queryTimeoutMs, isUnknownTask } = this.taskProfile;
    await probeWithUnknownTask(() => this.call(channel, 'GET', queryPath(probeTaskId), queryTimeoutMs), undefined, isUnknownTask);
  }

  /** The task's query, read by the family's mapper. */
  protected async query(task: UpstreamTask<R>, channel: ChannelEntity): Promise<PollOutcome> {
    const { queryPath, queryTimeoutMs, mapQuery } = this.taskProfile;
    const response = await this.call(channel, 'GET', queryPath(upstreamTaskIdOf(task), task.request), queryTimeoutMs, { task });
    return mapQuery(response.data, this.linkPolicy(channel), response.status);
  }
}
