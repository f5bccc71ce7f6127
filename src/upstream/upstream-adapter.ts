import type { Type } from '@nestjs/common';
import type { ChannelEntity, Platform } from './channel.entity';
import type { EndpointInputSchema } from './endpoint-input-schema';
import type { ProviderPush } from './push/provider-push';
import type { StoredRequest, UpstreamTask } from './upstream-task';

/** How a failed upstream call should be treated by the gateway. */
export type UpstreamErrorKind =
  /** The caller's input was refused: 400 to the client, no charge. */
  | 'invalid_input'
  /** The provider's moderation refused the content at submit: the task fails with that reason and is refunded. */
  | 'moderation'
  /** Provider back-pressure (concurrency or rate limit): 429 with Retry-After, try another channel. */
  | 'backpressure'
  /** The channel is broken (auth, arrears, bad URL): 503, alert, try another channel. */
  | 'channel'
  /** Timeouts, 5xx, connection errors, garbage: retry later or another channel. */
  | 'transient';

export interface UpstreamErrorDetails {
  upstreamCode?: string | number;
  retryAfterSeconds?: number;
  httpStatus?: number;
  /**
   * The call that creates the provider's task went out and its answer was lost or unusable (a timeout,
   * a reset connection, a 2xx without a task id): the provider may be running it, so the task is never
   * sent to another channel.
   */
  mayHaveBeenAccepted?: boolean;
  /** Nothing was sent: the submit's own deadline or takeover stopped it before the call (not the provider's fault). */
  beforeCall?: boolean;
}

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    readonly details: UpstreamErrorDetails = {},
  ) {
    super(message);
  }
}

/** The provider answered the task-creating call with a 2xx the gateway cannot use (no task id): it may have the task. */
export function acceptedWithoutId(message: string): UpstreamError {
  return new UpstreamError('transient', message, { mayHaveBeenAccepted: true });
}

/**
 * The part of a submit's deadline still left, shared by all its calls on all channels: each call's
 * timeout is its own or what remains, whichever is smaller (see callTimeoutMs).
 */
export interface SubmitDeadline {
  remainingMs(): number;
  /** Aborted when the submit must stop at once (its task was taken over). */
  signal?: AbortSignal;
}

/** A call's timeout within a submit's deadline; a transient error once no time is left. */
export function callTimeoutMs(ownTimeoutMs: number, deadline?: SubmitDeadline): number {
  if (!deadline) return ownTimeoutMs;
  if (deadline.signal?.aborted) throw new UpstreamError('transient', 'submit abandoned: the task was taken over', { beforeCall: true });
  const remaining = Math.floor(deadline.remainingMs());
  if (remaining <= 0) throw new UpstreamError('transient', 'submit deadline passed', { beforeCall: true });
  return Math.min(ownTimeoutMs, remaining);
}

export interface SubmitOutcome<Request extends StoredRequest = StoredRequest> {
  upstreamTaskId: string;
  /** Extra request data the adapter learned while submitting (e.g. an uploaded img_id), merged into task.request. */
  requestPatch?: Partial<Request>;
  /** What the provider said the task costs it, when it says so at submit (Vidu's `credits`). */
  providerUsage?: ProviderUsage;
}

/**
 * What a provider reports of its own cost of a task, in its own unit (fal's `x-fal-billable-units`,
 * Vidu's `credits`, xAI's `usage.cost_in_usd_ticks`, Replicate's `metrics.predict_time` seconds, Wan's billed `usage.duration` seconds, Seedance's `usage.total_tokens`):
 * kept per attempt of a task against the channel that made it, summed per channel beside what customers paid.
 */
export interface ProviderUsage {
  unit: 'fal_billable_units' | 'credits' | 'usd_ticks' | 'predict_seconds' | 'video_seconds' | 'tokens';
  amount: number;
}

export type UpstreamState = 'queued' | 'running' | 'succeeded' | 'failed';
/** The states of a task its provider may still stop. */
export type CancellableState = Extract<UpstreamState, 'queued' | 'running'>;

/**
 * A succeeded outcome's `videoUrl` when the provider answered the video's bytes inside its answer (Gemini
 * Omni's base64 `data`), not at a link: only this marker is kept on the task (never the bytes), and whoever
 * needs the video (the archive, the content relay) reads the answer again with the adapter's `inlineVideo`.
 */
export const INLINE_VIDEO_URL = 'inline:';

/** A video as its provider answered it, bytes and all (decoded once from its answer). */
export interface InlineVideo {
  bytes: Buffer;
  mimeType?: string;
}

export interface PollOutcome {
  state: UpstreamState;
  /** 0..100 when the provider reports it; otherwise the sync job estimates from elapsed time. */
  progress?: number;
  /** The finished video's link, or INLINE_VIDEO_URL. */
  videoUrl?: string;
  /** `<width>x<height>` of the output. */
  outputSize?: string;
  /** Reason shown to the client on failure (e.g. `content moderation failed`). */
  failReason?: string;
  /** The raw upstream query body, kept as the task's `upstream_response`. */
  raw: unknown;
  /** The provider says the task was cancelled (a failed outcome): after a client's cancel was sent, that cancel's end. */
  cancelledUpstream?: boolean;
  /** What the provider reports of its cost of the task so far (the last one reported is kept). */
  providerUsage?: ProviderUsage;
}

/**
 * One upstream family's wire protocol, over the family's own request type (what its drafts write).
 * Each family registers its adapter with the FamilyRegistry; the task core holds them as `UpstreamAdapter`.
 */
export interface UpstreamAdapter<Request extends StoredRequest = StoredRequest> {
  readonly platform: Platform;
  /** Default poll interval for the family (a channel's `poll_interval_ms` overrides it). */
  readonly defaultPollIntervalMs: number;
  /** Floor for a channel's `poll_interval_ms` (providers that rate-limit fast polling); none when absent. */
  readonly minPollIntervalMs?: number;
  /** Typical generation time, used to estimate progress when the provider reports none. */
  readonly expectedDurationMs: number;
  /** True when resubmitting the same task is de-duplicated upstream (safe after a crash). */
  readonly idempotentSubmit: boolean;
  /**
   * How long the provider keeps a finished video at its link (Replicate: an hour; xAI and Vidu:
   * short-lived links): such videos are archived as soon as the task ends, ahead of other archive
   * work, and past it a video that could not be archived is gone (410 `video_expired`). Absent: kept.
   */
  readonly outputExpiresAfterMs?: number;
  /** The model name sent upstream when the channel has no mapping for it. */
  defaultUpstreamModel(publicModel: string): string;
  /**
   * Every upstream call of the submit stays within `deadline` (and stops when its signal aborts); with
   * `callbackUrl` (push on for the channel), the provider is asked to call back there, as `push` says.
   */
  submit(
    task: UpstreamTask<Request>,
    channel: ChannelEntity,
    deadline?: SubmitDeadline,
    callbackUrl?: string,
  ): Promise<SubmitOutcome<Request>>;
  /** How its provider calls back (providers that push); absent: it does not, its tasks are polled. */
  readonly push?: ProviderPush;
  poll(task: UpstreamTask<Request>, channel: ChannelEntity): Promise<PollOutcome>;
  /**
   * The bytes of a finished task's video its provider answers inline (its `videoUrl` was INLINE_VIDEO_URL),
   * read from a fresh answer; null when the answer no longer carries them. Throws UpstreamError.
   */
  inlineVideo?(task: UpstreamTask<Request>, channel: ChannelEntity): Promise<InlineVideo | null>;
  /** A fresh download URL for a finished task whose stored one expired; null when there is none. */
  refreshVideoUrl?(task: UpstreamTask<Request>, channel: ChannelEntity): Promise<string | null>;
  /**
   * Headers a download of this provider's finished video needs (e.g. its key, when the video is
   * served by its authenticated API); sent only to the channel's own origin, never across a redirect.
   */
  videoDownloadHeaders?(channel: ChannelEntity): Record<string, string>;
  /**
   * Asks the provider to cancel the task (only families whose provider can; absent: it cannot).
   * Resolves once the provider accepted; throws UpstreamError when it refused or could not be asked.
   * Called only by the shared cancel path (ProviderCancel), right after a poll found the task in one
   * of `cancelWhile`: some providers' cancel also deletes a finished task.
   */
  cancel?(task: UpstreamTask<Request>, channel: ChannelEntity): Promise<void>;
  /**
   * The provider states in which its cancel stops a task (absent: queued and running). A getter of the
   * class, not an instance field: the API documentation reads it from the class (cancellableStates).
   */
  readonly cancelWhile?: readonly CancellableState[];
  /** A cheap authenticated call that proves the channel works (console "test connectivity"); throws UpstreamError. */
  probe?(channel: ChannelEntity): Promise<void>;
  /**
   * The input schema of one of the platform's endpoints (hosted platforms: fal, Replicate), read through
   * the channel, from which a route's `input_map` is proposed; null when the provider has no such endpoint.
   */
  inputSchema?(channel: ChannelEntity, upstreamModel: string): Promise<EndpointInputSchema | null>;
  /** The model ids the channel's upstream lists (an OpenAI-compatible upstream's `GET /models`). */
  upstreamModels?(channel: ChannelEntity): Promise<string[]>;
}

const STOPPABLE_BY_DEFAULT: readonly CancellableState[] = ['queued', 'running'];

/**
 * The states in which an adapter's provider stops a task when asked to cancel it; none when it has no
 * `cancel`. Of an instance (ProviderCancel) or of the class (the API documentation, built at import
 * from FAMILIES, before any instance): the same answer, as both come from the class.
 */
export function cancellableStates(adapter: UpstreamAdapter | Type<UpstreamAdapter>): readonly CancellableState[] {
  const declared = (typeof adapter === 'function' ? adapter.prototype : adapter) as UpstreamAdapter;
  return typeof declared.cancel === 'function' ? (declared.cancelWhile ?? STOPPABLE_BY_DEFAULT) : [];
}
