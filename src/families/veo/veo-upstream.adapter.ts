import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import { succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
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
import { ProviderCalls } from '../../upstream/provider-calls';

const SUBMIT_TIMEOUT_MS = 60_000;
const QUERY_TIMEOUT_MS = 15_000;

/**
 * Veo on the Gemini API: `POST /v1beta/models/{model}:predictLongRunning` answers an operation
 * name, `GET /v1beta/{name}` follows it; every call, the video download included, carries the
 * channel's key as `x-goog-api-key` (sent to the channel's origin only). Not de-duplicated, not cancellable.
 */
@Injectable()
export class VeoUpstreamAdapter extends BearerJsonAdapter<VeoErrorBody, VeoTaskRequest> {
  readonly platform = 'veo' as const;
  /** Google's samples poll every 10 s; a video takes 11 s to 6 min. */
  readonly defaultPollIntervalMs = 10_000;
  readonly expectedDurationMs = 120_000;

  constructor(
    calls: ProviderCalls,
    private readonly images: StagedImageInputs,
  ) {
    super(calls, {
      provider: 'Veo',
      authHeaders: (channel) => ({ 'x-goog-api-key': channel.apiKey }),
      mapError: mapVeoError,
    });
  }

  protected async creation(task: UpstreamTask<VeoTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    return {
      path: veoSubmitPath(task.upstreamModel),
      timeoutMs: SUBMIT_TIMEOUT_MS,
      body: buildVeoSubmitBody(request, { image: await this.inline(request.image), lastFrame: await this.inline(request.lastFrame) }),
      taskIdOf: (answer) => (answer as { name?: unknown }).name,
      isTaskId: (name) => VEO_OPERATION_NAME.test(name),
    };
  }

  async poll(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const name = upstreamTaskIdOf(task);
    if (!VEO_OPERATION_NAME.test(name)) throw new UpstreamError('channel', `task ${task.taskId} has no usable operation name`);
    const response = await this.call(channel, 'GET', veoOperationPath(name), QUERY_TIMEOUT_MS, { task });
    return mapVeoOperation(response.data, this.linkPolicy(channel));
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
}
