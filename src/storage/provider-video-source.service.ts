import { HttpService } from '@nestjs/axios';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { pipeline, Readable, Transform } from 'node:stream';
import { AppError } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { fetchPublicUrl } from '../common/urls/public-fetch';
import { isShowableLink } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FamilyRegistry } from '../families/family-registry';
import { TaskEntity } from '../tasks/task.entity';
import { TaskStateRepository } from '../tasks/repositories/task-state.repository';
import type { ChannelEntity } from '../upstream/channel.entity';
import { channelLinkPolicy } from '../upstream/channel-link-policy';
import { ChannelsService } from '../upstream/channels.service';
import { INLINE_VIDEO_URL } from '../upstream/upstream-adapter';

/** What a stored URL answers once it has expired. */
const EXPIRED = new Set([403, 404, 410]);

/**
 * How much each relay stage holds before it pushes back: Node 20's default (16 KiB) makes a relayed
 * video stop and start every few socket reads, at about half a bare relay's speed.
 */
export const RELAY_BUFFER_BYTES = 1024 * 1024;

/** The provider's answer for a video: its status, headers and body stream. */
export type ProviderVideo = AxiosResponse<Readable>;

/** Why the provider gave no video: `gone` when it no longer has it (expired and no fresh link), else `unavailable`. */
export class ProviderVideoError extends Error {
  constructor(readonly reason: 'gone' | 'unavailable') {
    super(reason === 'gone' ? 'the provider no longer has the video' : 'the provider did not serve the video');
  }
}

/**
 * Downloads a finished task's video from the provider: from the stored temporary URL, or, once
 * that has expired, from a fresh one the family adapter asks for (kept on the task). One code path
 * for the content proxy and the archiving job. Errors never name the upstream URL.
 */
@Injectable()
export class ProviderVideoSource {
  private readonly logger = new Logger('ProviderVideo');
  /** Until the provider's headers arrive, and between body chunks; replaceable in tests. */
  timeoutMs = 30_000;

  constructor(
    private readonly tasks: TaskStateRepository,
    private readonly channels: ChannelsService,
    private readonly families: FamilyRegistry,
    private readonly http: HttpService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The provider's 200, 206 or 416 for the video (with `range` passed on); throws ProviderVideoError otherwise. */
  async open(task: TaskEntity, range?: string): Promise<ProviderVideo> {
    const channel = await this.channelOf(task);
    if (task.resultUrl === INLINE_VIDEO_URL) return this.inline(task, channel);
    // A stored link that may not be shown (kept before links were checked) is not fetched either: a fresh one is asked for.
    const stored =
      task.resultUrl && isShowableLink(task.resultUrl, channelLinkPolicy(channel ?? { baseUrl: '' }, this.config.mediaAllowPrivateHosts))
        ? task.resultUrl
        : null;
    // Some providers serve the video from their authenticated API (the channel's key goes to its own origin only).
    const credentials = channel ? this.families.findAdapter(task.platform)?.videoDownloadHeaders?.(channel) : undefined;
    let response = stored ? await this.fetch(stored, channel, range, credentials) : null;
    let gone = false;
    if (!response || EXPIRED.has(response.status)) {
      const staleExpired = !stored || (response !== null && EXPIRED.has(response.status));
      response?.data.destroy();
      const fresh = await this.refreshUrl(task, channel);
      response = fresh ? await this.fetch(fresh, channel, range, credentials) : null;
      // Gone: the link expired and the provider gives no working new one (a failed refresh may be transient).
      gone = (fresh === null && staleExpired) || (response !== null && EXPIRED.has(response.status));
    }
    if (!response || (response.status !== 200 && response.status !== 206 && response.status !== 416)) {
      if (response) this.logger.warn(`video of ${task.taskId} answered HTTP ${response.status}`);
      response?.data.destroy();
      throw new ProviderVideoError(gone ? 'gone' : 'unavailable');
    }
    return { ...response, data: failWhenIdle(response.data, this.timeoutMs) };
  }

  /**
   * A video its provider answered inline: the answer read again and its bytes served whole (a 200, whatever the
   * range: the relay and the archive take a whole answer), as a download would be. Gone once the answer carries none.
   */
  private async inline(task: TaskEntity, channel: ChannelEntity | null): Promise<ProviderVideo> {
    const adapter = this.families.findAdapter(task.platform);
    if (!channel || !adapter?.inlineVideo) throw new ProviderVideoError('gone');
    let video;
    try {
      video = await adapter.inlineVideo(task, channel);
    } catch (error) {
      this.logger.warn(`reading the inline video of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      throw new ProviderVideoError('unavailable');
    }
    if (!video) throw new ProviderVideoError('gone');
    const headers = { 'content-type': video.mimeType ?? 'video/mp4', 'content-length': String(video.bytes.length) };
    // One chunk: the decoded buffer itself, not a copy.
    return { status: 200, statusText: 'OK', headers, config: {}, data: Readable.from([video.bytes]) } as ProviderVideo;
  }

  private async channelOf(task: TaskEntity): Promise<ChannelEntity | null> {
    if (task.channelId === null) return null;
    return this.channels.get(task.channelId).catch(() => null);
  }

  /** A fresh URL from the family adapter, kept on the task for the next download; null when there is none, undefined when asking failed. */
  private async refreshUrl(task: TaskEntity, channel: ChannelEntity | null): Promise<string | null | undefined> {
    const adapter = this.families.findAdapter(task.platform);
    if (!channel || !adapter?.refreshVideoUrl) return null;
    try {
      const fresh = await adapter.refreshVideoUrl(task, channel);
      if (fresh) await this.tasks.replaceResultUrl(task.id, fresh, this.clock.now());
      return fresh;
    } catch (error) {
      this.logger.warn(`refreshing the video URL of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      return undefined;
    }
  }

  /** The provider's own host (the channel's) is trusted; any other must be public unless private hosts are allowed. */
  private async fetch(
    url: string,
    channel: ChannelEntity | null,
    range: string | undefined,
    credentials?: Record<string, string>,
  ): Promise<ProviderVideo | null> {
    try {
      return await fetchPublicUrl<Readable>(
        channel && credentials
          ? withHeadersForOrigin(this.http.axiosRef, new URL(channel.baseUrl).origin, credentials)
          : this.http.axiosRef,
        {
          url,
          method: 'GET',
          responseType: 'stream',
          decompress: false,
          timeout: this.timeoutMs,
          headers: { 'Accept-Encoding': 'identity', ...(range ? { Range: range } : {}) },
        },
        {
          field: 'video url',
          allowPrivate: this.config.mediaAllowPrivateHosts,
          trustedHosts: channel ? [new URL(channel.baseUrl).host] : [],
        },
      );
    } catch (error) {
      this.logger.warn(
        `fetching a video failed: ${error instanceof AppError ? error.message : ((error as { code?: string })?.code ?? 'network error')}`,
      );
      return null;
    }
  }
}

/**
 * The body as a stream that fails once the provider sent nothing for `idleMs` while the reader
 * waited for it (a stalled socket alone would wait forever). A pass-through stage, so the body
 * flows only as its reader reads.
 */
function failWhenIdle(body: Readable, idleMs: number): Readable {
  let timer: NodeJS.Timeout | undefined;
  const guard: Transform = new Transform({
    highWaterMark: RELAY_BUFFER_BYTES,
    transform(chunk, _encoding, done) {
      arm();
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // Bytes still waiting for the reader: the silence is the reader's (a paused player), not the provider's.
      if (guard.readableLength > 0 || guard.writableLength > 0) return arm();
      guard.destroy(Object.assign(new Error('the provider stopped sending the video'), { code: 'ESTALLED' }));
    }, idleMs);
  };
  arm();
  guard.once('close', () => clearTimeout(timer));
  pipeline(body, guard, () => clearTimeout(timer));
  return guard;
}

/** A client that adds `headers` to requests for `origin` only: each redirect hop is a new request, so the key never follows one elsewhere. */
function withHeadersForOrigin(client: HttpClient, origin: string, headers: Record<string, string>): HttpClient {
  return {
    request: (config: Parameters<HttpClient['request']>[0]) =>
      client.request(
        config.url && new URL(config.url).origin === origin
          ? { ...config, headers: { ...(config.headers as Record<string, string>), ...headers } }
          : config,
      ),
  } as HttpClient;
}

type HttpClient = HttpService['axiosRef'];
