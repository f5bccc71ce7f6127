import { HttpService } from '@nestjs/axios';
import { Injectable } from '@nestjs/common';
import type { AxiosRequestConfig, AxiosResponse } from 'axios';
import { Clock } from '../../common/runtime/clock';
import { gatewayHopsHeader } from '../../common/http/gateway-hops';
import { newUuid } from '../../common/runtime/random-id';
import { markIfMayHaveBeenAccepted, parseRetryAfter } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { acceptedWithoutId, callTimeoutMs, SubmitDeadline, UpstreamError } from '../../upstream/upstream-adapter';
import { MAX_PROVIDER_BODY_BYTES } from '../../upstream/provider-text';
import { transportError } from '../../upstream/transport-error';
import { alphaError } from './alpha-errors';
import type { StagedImage } from '../shared/staged-image-inputs.service';

/** `Resp` of `GET /openapi/v2/video/result/{video_id}`. */
export interface AlphaVideoResult {
  id?: number | string;
  /** 1 succeeded, 5 generating or waiting, 6 deleted, 7 moderation failed, 8 generation failed. */
  status?: number;
  url?: string;
  outputWidth?: number;
  outputHeight?: number;
  [key: string]: unknown;
}

export type AlphaGenerateKind = 'text' | 'img';

/**
 * The family A wire protocol: `API-KEY` and `Ai-trace-id` on every call, the
 * `{ErrCode, ErrMsg, Resp}` envelope (or the lower-case one on HTTP errors) turned into
 * results or UpstreamErrors. Never logs or returns the channel's key.
 */
@Injectable()
export class AlphaApiClient {
  /** Per-call timeouts; replaceable in tests. */
  timeouts = { uploadMs: 60_000, generateMs: 30_000, queryMs: 15_000 };

  constructor(
    private readonly http: HttpService,
    private readonly clock: Clock,
  ) {}

  /** `gatewayHops`: the hops of the task's submit before this gateway (X-Gateway-Hops sends one more). */
  async uploadImage(
    channel: ChannelEntity,
    image: StagedImage,
    traceId: string,
    deadline?: SubmitDeadline,
    gatewayHops = 0,
  ): Promise<number> {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(image.bytes)], { type: image.mime }), image.filename);
    const { resp } = await this.call<{ img_id?: unknown }>(channel, traceId, {
      method: 'POST',
      url: '/openapi/v2/image/upload',
      data: form,
      headers: gatewayHopsHeader(gatewayHops),
      timeout: callTimeoutMs(this.timeouts.uploadMs, deadline),
      signal: deadline?.signal,
    });
    const imgId = Number(resp?.img_id);
    if (!Number.isSafeInteger(imgId)) throw new UpstreamError('transient', 'image upload answered without an img_id');
    return imgId;
  }

  async generate(
    channel: ChannelEntity,
    kind: AlphaGenerateKind,
    body: Record<string, unknown>,
    traceId: string,
    deadline?: SubmitDeadline,
    gatewayHops = 0,
  ): Promise<string> {
    const { resp } = await this.call<{ video_id?: unknown }>(
      channel,
      traceId,
      {
        method: 'POST',
        url: `/openapi/v2/video/${kind}/generate`,
        data: body,
        headers: { 'Content-Type': 'application/json', ...gatewayHopsHeader(gatewayHops) },
        timeout: callTimeoutMs(this.timeouts.generateMs, deadline),
        signal: deadline?.signal,
      },
      true,
    );
    const videoId = resp?.video_id;
    if ((typeof videoId !== 'number' && typeof videoId !== 'string') || String(videoId) === '') {
      throw acceptedWithoutId('generate answered without a video_id');
    }
    return String(videoId);
  }

  /** Queries use a fresh trace id each time: a repeated one would return the earlier answer. */
  async result(channel: ChannelEntity, videoId: string): Promise<{ result: AlphaVideoResult; raw: unknown }> {
    const { resp, raw } = await this.call<AlphaVideoResult>(channel, newUuid(), {
      method: 'GET',
      url: `/openapi/v2/video/result/${encodeURIComponent(videoId)}`,
      timeout: this.timeouts.queryMs,
    });
    if (!resp || typeof resp !== 'object') throw new UpstreamError('transient', 'result answered without Resp');
    return { result: resp, raw };
  }

  /** `createsTask`: generate, whose answer lost after it went out (unreadable, or a 504) may mean the provider has the video. */
  private async call<T>(
    channel: ChannelEntity,
    traceId: string,
    config: AxiosRequestConfig,
    createsTask = false,
  ): Promise<{ resp: T; raw: unknown }> {
    let response: AxiosResponse<string>;
    try {
      response = await this.http.axiosRef.request<string>({
        ...config,
        baseURL: channel.baseUrl,
        // X-Gateway-Hops on every call: a submit's own count when it set one, else this gateway's first hop.
        headers: {
          ...gatewayHopsHeader(),
          ...(config.headers as Record<string, string>),
          'API-KEY': channel.apiKey,
          'Ai-trace-id': traceId,
          Accept: 'application/json',
        },
        responseType: 'text',
        transformResponse: (data: string) => data,
        validateStatus: () => true,
        maxRedirects: 0,
        // A larger answer is cut off while it arrives (a transient error), never buffered whole.
        maxContentLength: MAX_PROVIDER_BODY_BYTES,
      });
    } catch (error) {
      throw transportError('provider', error, createsTask);
    }
    const body = parseJson(response.data);
    const code = body?.ErrCode ?? body?.err_code;
    const message = (body?.ErrMsg ?? body?.err_msg) as string | undefined;
    const retryAfter = parseRetryAfter(response.headers['retry-after'], this.clock.now());
    const refused =
      code !== undefined && code !== null && Number(code) !== 0
        ? alphaError(Number(code), message, response.status, retryAfter)
        : response.status >= 300
          ? alphaError(undefined, message, response.status, retryAfter)
          : null;
    if (refused) {
      if (createsTask) markIfMayHaveBeenAccepted(refused, response.status);
      throw refused;
    }
    if (!body || Number(code) !== 0) {
      const message = `unparseable provider response (HTTP ${response.status})`;
      throw createsTask ? acceptedWithoutId(message) : new UpstreamError('transient', message);
    }
    return { resp: body.Resp as T, raw: body };
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
