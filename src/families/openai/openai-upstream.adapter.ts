import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { Clock } from '../../common/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { TaskEntity } from '../../tasks/task.entity';
import { callBearerJson, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { channelLinkPolicy } from '../../upstream/channel-link-policy';
import { callTimeoutMs, PollOutcome, SubmitDeadline, SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import { mapOpenAiError } from './openai-errors';
import { OpenAiInputFiles } from './openai-input-files.service';
import {
  buildOpenAiJsonBody,
  buildOpenAiMultipartBody,
  OPENAI_VIDEOS_PATH,
  openAiContentPath,
  OpenAiErrorBody,
  OpenAiTaskRequest,
  openAiVideoPath,
} from './openai-protocol';
import { mapOpenAiVideo } from './openai-query-mapping';

const SUBMIT_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 15_000;

/**
 * Family O: any server speaking OpenAI's Videos API (OpenAI, another gateway, this one). Submit
 * `POST /videos` (JSON, or multipart with an `input_reference` file), follow `GET /videos/{id}`,
 * download `GET /videos/{id}/content` with the channel's key.
 */
@Injectable()
export class OpenAiUpstreamAdapter implements UpstreamAdapter {
  readonly platform = 'openai' as const;
  /** The protocol suggests polling every 5 to 10 s. */
  readonly defaultPollIntervalMs = 5_000;
  readonly expectedDurationMs = 120_000;
  /** The API does not de-duplicate submits: an interrupted submit is failed and refunded, never resent. */
  readonly idempotentSubmit = false;

  constructor(
    private readonly http: HttpService,
    private readonly clock: Clock,
    private readonly files: OpenAiInputFiles,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  async submit(task: TaskEntity, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<SubmitOutcome> {
    const request = task.request as unknown as OpenAiTaskRequest;
    const body = request.inputFile
      ? buildOpenAiMultipartBody(request, task.upstreamModel, { bytes: this.files.load(request.inputFile), filename: request.inputFile.filename, mime: request.inputFile.mime })
      : buildOpenAiJsonBody(request, task.upstreamModel);
    const response = await this.call(channel, 'POST', OPENAI_VIDEOS_PATH, callTimeoutMs(SUBMIT_TIMEOUT_MS, deadline), body, deadline?.signal);
    const id = (response.data as { id?: unknown }).id;
    if (typeof id !== 'string' || !id || id.length > 128) throw new UpstreamError('transient', 'the provider accepted the submit without a usable id');
    return { upstreamTaskId: id };
  }

  async poll(task: TaskEntity, channel: ChannelEntity): Promise<PollOutcome> {
    const id = upstreamTaskIdOf(task);
    const response = await this.call(channel, 'GET', openAiVideoPath(id), QUERY_TIMEOUT_MS);
    return mapOpenAiVideo(response.data, `${channel.baseUrl}${openAiContentPath(id)}`, channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
  }

  /** The content URL does not change; it only needs the key (sent to the channel's origin only). */
  videoDownloadHeaders(channel: ChannelEntity): Record<string, string> {
    return { Authorization: `Bearer ${channel.apiKey}` };
  }

  /** Listing one video proves the key works without generating anything. */
  async probe(channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'GET', `${OPENAI_VIDEOS_PATH}?limit=1`, QUERY_TIMEOUT_MS);
  }

  private call(channel: ChannelEntity, method: 'GET' | 'POST', path: string, timeout: number, body?: unknown, signal?: AbortSignal): Promise<AxiosResponse> {
    return callBearerJson<OpenAiErrorBody>(this.http, channel, { method, path, timeout, body, signal }, 'family O', (status, errorBody, retryAfter) =>
      mapOpenAiError(status, errorBody, retryAfter, this.clock.now()),
    );
  }
}
