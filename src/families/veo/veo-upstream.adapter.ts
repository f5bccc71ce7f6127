import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { callBearerJson, succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { channelLinkPolicy } from '../../upstream/channel-link-policy';
import {
  acceptedWithoutId,
  callTimeoutMs,
  PollOutcome,
  SubmitDeadline,
  SubmitOutcome,
  UpstreamAdapter,
  UpstreamError,
} from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { StagedImageInputs, StagedImageRef } from '../shared/staged-image-inputs.service';
import { mapVeoError } from './veo-errors';
import { mapVeoOperation } from './veo-operation-mapping';
import {
  buildVeoSubmitBody,
  VEO_OPERATION_NAME,
  VEO_PROBE_PATH,
  VeoErrorBody,
  VeoImage,
  veoOperationPath,
  veoSubmitPath,
  VeoTaskRequest,
} from './veo-protocol';

const SUBMIT_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 15_000;

/**
 * Veo on the Gemini API: `POST /v1beta/models/{model}:predictLongRunning` answers an operation
 * name, `GET /v1beta/{name}` follows it; every call, the video download included, carries the
 * channel's key as `x-goog-api-key` (sent to the channel's origin only). Not de-duplicated, not cancellable.
 */
@Injectable()
export class VeoUpstreamAdapter implements UpstreamAdapter<VeoTaskRequest> {
  readonly platform = 'veo' as const;
  /** Google's samples poll every 10 s; a video takes 11 s to 6 min. */
  readonly defaultPollIntervalMs = 10_000;
  readonly expectedDurationMs = 120_000;
  readonly idempotentSubmit = false;

  constructor(
    private readonly http: HttpService,
    private readonly clock: Clock,
    private readonly images: StagedImageInputs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  async submit(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity, deadline?: SubmitDeadline): Promise<SubmitOutcome> {
    const { request } = task;
    const body = buildVeoSubmitBody(request, { image: await this.inline(request.image), lastFrame: await this.inline(request.lastFrame) });
    const response = await this.call(channel, 'POST', veoSubmitPath(task.upstreamModel), callTimeoutMs(SUBMIT_TIMEOUT_MS, deadline), {
      body,
      signal: deadline?.signal,
      task,
      createsTask: true,
    });
    const name = (response.data as { name?: unknown }).name;
    if (typeof name !== 'string' || !VEO_OPERATION_NAME.test(name))
      throw acceptedWithoutId('the provider accepted the submit without a usable operation name');
    return { upstreamTaskId: name };
  }

  async poll(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const name = upstreamTaskIdOf(task);
    if (!VEO_OPERATION_NAME.test(name)) throw new UpstreamError('channel', `task ${task.taskId} has no usable operation name`);
    const response = await this.call(channel, 'GET', veoOperationPath(name), QUERY_TIMEOUT_MS, { task });
    return mapVeoOperation(response.data, channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
  }

  /** The operation keeps handing out the same file URI while Google keeps the video (2 days). */
  async refreshVideoUrl(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.poll(task, channel));
  }

  /** The file download needs the key too (Google's answer may redirect to signed storage, which gets no key). */
  videoDownloadHeaders(channel: ChannelEntity): Record<string, string> {
    return { 'x-goog-api-key': channel.apiKey };
  }

  async probe(channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'GET', VEO_PROBE_PATH, QUERY_TIMEOUT_MS);
  }

  /** An image as Veo takes it: base64 bytes inline (the Gemini API takes no gcsUri). */
  private async inline(ref: StagedImageRef | undefined): Promise<VeoImage | undefined> {
    if (!ref) return undefined;
    const image = await this.images.load(ref);
    return { bytesBase64Encoded: image.bytes.toString('base64'), mimeType: image.mime };
  }

  private call(
    channel: ChannelEntity,
    method: 'GET' | 'POST',
    path: string,
    timeout: number,
    options: { body?: unknown; signal?: AbortSignal; task?: UpstreamTask<VeoTaskRequest>; createsTask?: boolean } = {},
  ): Promise<AxiosResponse> {
    return callBearerJson<VeoErrorBody>(
      this.http,
      channel,
      {
        method,
        path,
        timeout,
        body: options.body,
        signal: options.signal,
        gatewayHops: options.task?.gatewayHops,
        authHeaders: { 'x-goog-api-key': channel.apiKey },
        createsTask: options.createsTask,
      },
      'Veo',
      (status, body, retryAfter) => mapVeoError(status, body, retryAfter, this.clock.now()),
    );
  }
}
