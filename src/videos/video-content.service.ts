import { HttpService } from '@nestjs/axios';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { Readable } from 'node:stream';
import { AppError, ErrorCode } from '../common/app-error';
import { Clock } from '../common/clock';
import { fetchPublicUrl } from '../common/public-fetch';
import { isShowableLink } from '../common/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { TaskEntity } from '../tasks/task.entity';
import { TaskQueries } from '../tasks/task-queries.service';
import { TaskRepository } from '../tasks/task.repository';
import { toFlatStatus } from '../tasks/task-status';
import type { ChannelEntity } from '../upstream/channel.entity';
import { channelLinkPolicy } from '../upstream/channel-link-policy';
import { ChannelsService } from '../upstream/channels.service';
import { FamilyRegistry } from '../families/family-registry.service';

/** What a stored URL answers once it has expired. */
const EXPIRED = new Set([403, 404, 410]);
const PASSED_HEADERS = ['content-length', 'content-range', 'last-modified', 'etag'];

export interface VideoStream {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/**
 * `GET|HEAD /v1/videos/{id}/content`: streams a finished task's video from the provider's
 * temporary URL, passing `Range` through, and asks the family adapter for a fresh URL when the
 * stored one has expired. Generic over platforms. Errors never name the upstream URL.
 */
@Injectable()
export class VideoContentService {
  private readonly logger = new Logger('VideoContent');
  /** Until the provider's headers arrive, and between body chunks; replaceable in tests. */
  timeoutMs = 30_000;

  constructor(
    private readonly tasks: TaskRepository,
    private readonly queries: TaskQueries,
    private readonly channels: ChannelsService,
    private readonly families: FamilyRegistry,
    private readonly http: HttpService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async open(userId: number, taskId: string, variant: unknown, range: string | undefined): Promise<VideoStream> {
    const task = await this.queries.findOwned(userId, taskId);
    if (variant !== undefined && variant !== 'video') throw AppError.notFound(`video ${taskId} has no ${String(variant)} variant`);
    if (task.status !== 'SUCCESS') {
      throw new AppError(ErrorCode.Conflict, `video ${taskId} is not completed (status: ${toFlatStatus(task.status)})`);
    }
    const channel = await this.channelOf(task);
    const forwardedRange = range && /^bytes=/.test(range) ? range : undefined;
    // A stored link that may not be shown (kept before links were checked) is not fetched either: a fresh one is asked for.
    const stored = task.resultUrl && isShowableLink(task.resultUrl, channelLinkPolicy(channel ?? { baseUrl: '' }, this.config.mediaAllowPrivateHosts)) ? task.resultUrl : null;
    // Some providers serve the video from their authenticated API (the channel's key goes to its own origin only).
    const credentials = channel ? this.families.findAdapter(task.platform)?.videoDownloadHeaders?.(channel) : undefined;
    let response = stored ? await this.fetch(stored, channel, forwardedRange, credentials) : null;
    if (!response || EXPIRED.has(response.status)) {
      response?.data.destroy();
      const fresh = await this.refreshUrl(task, channel);
      response = fresh ? await this.fetch(fresh, channel, forwardedRange, credentials) : null;
    }
    if (!response || (response.status !== 200 && response.status !== 206 && response.status !== 416)) {
      if (response) this.logger.warn(`video of ${taskId} answered HTTP ${response.status}`);
      response?.data.destroy();
      throw unavailable();
    }
    const headers: Record<string, string> = { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'cache-control': 'private, no-store' };
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
    }
    headers['content-disposition'] = `inline; filename="${task.taskId}.mp4"`;
    return { status: response.status, headers, body: response.data };
  }

  private async channelOf(task: TaskEntity): Promise<ChannelEntity | null> {
    if (task.channelId === null) return null;
    return this.channels.get(task.channelId).catch(() => null);
  }

  /** A fresh URL from the family adapter, kept on the task for the next download. */
  private async refreshUrl(task: TaskEntity, channel: ChannelEntity | null): Promise<string | null> {
    const adapter = this.families.findAdapter(task.platform);
    if (!channel || !adapter?.refreshVideoUrl) return null;
    try {
      const fresh = await adapter.refreshVideoUrl(task, channel);
      if (fresh) await this.tasks.replaceResultUrl(task.id, fresh, this.clock.now());
      return fresh;
    } catch (error) {
      this.logger.warn(`refreshing the video URL of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
      return null;
    }
  }

  /** The provider's own host (the channel's) is trusted; any other must be public unless private hosts are allowed. */
  private async fetch(url: string, channel: ChannelEntity | null, range: string | undefined, credentials?: Record<string, string>): Promise<AxiosResponse<Readable> | null> {
    try {
      return await fetchPublicUrl<Readable>(
        channel && credentials ? withHeadersForOrigin(this.http.axiosRef, new URL(channel.baseUrl).origin, credentials) : this.http.axiosRef,
        {
          url,
          method: 'GET',
          responseType: 'stream',
          decompress: false,
          timeout: this.timeoutMs,
          headers: { 'Accept-Encoding': 'identity', ...(range ? { Range: range } : {}) },
        },
        { field: 'video url', allowPrivate: this.config.mediaAllowPrivateHosts, trustedHosts: channel ? [new URL(channel.baseUrl).host] : [] },
      );
    } catch (error) {
      this.logger.warn(`fetching a video failed: ${error instanceof AppError ? error.message : ((error as { code?: string })?.code ?? 'network error')}`);
      return null;
    }
  }
}

/** A client that adds `headers` to requests for `origin` only: each redirect hop is a new request, so the key never follows one elsewhere. */
function withHeadersForOrigin(client: HttpClient, origin: string, headers: Record<string, string>): HttpClient {
  return {
    request: (config: Parameters<HttpClient['request']>[0]) =>
      client.request(config.url && new URL(config.url).origin === origin ? { ...config, headers: { ...(config.headers as Record<string, string>), ...headers } } : config),
  } as HttpClient;
}

type HttpClient = HttpService['axiosRef'];

const unavailable = () =>
  new AppError(ErrorCode.ServiceUnavailable, 'the video is temporarily unavailable from the provider, retry later', { retryAfterSeconds: 30 });
