import type { LinkPolicy } from '../common/urls/url-guard';
import type { ChannelEntity } from './channel.entity';
import type { PollOutcome, ProviderUsage, UpstreamAdapter, UpstreamError } from './upstream-adapter';
import type { StoredRequest } from './upstream-task';

/**
 * How a family's create call goes for every one of its tasks: its timeout and the reading of its
 * answer. The path and body are each task's own (BearerJsonAdapter.creation).
 */
export interface CreateCallProfile {
  timeoutMs: number;
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

/** The facts of an adapter the task core reads (see UpstreamAdapter): the same for every task and channel. */
export type AdapterFacts = Pick<
  UpstreamAdapter,
  'platform' | 'defaultPollIntervalMs' | 'minPollIntervalMs' | 'expectedDurationMs' | 'outputExpiresAfterMs'
>;

/**
 * One family as a Bearer JSON adapter: its facts, its name in messages, its extra headers, its error
 * reading and its create call. Each adapter passes its own once to BearerJsonAdapter, which serves
 * them, so an adapter's class holds only the calls that are its family's.
 */
export interface BearerJsonProfile<E> extends AdapterFacts {
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
  create: CreateCallProfile;
}

/** How a family queries one task by id (families B and C, Kling, Runway, Vidu, xAI). */
export interface BearerJsonTaskProfile<E, R extends StoredRequest = StoredRequest> extends BearerJsonProfile<E> {
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
