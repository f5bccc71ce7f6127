import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
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
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const VEO_PROFILE: BearerJsonProfile<VeoErrorBody> = {
  platform: 'veo',
  provider: 'Veo',
  // Google's samples poll every 10 s; a video takes 11 s to 6 min.
  defaultPollIntervalMs: 10_000,
  expectedDurationMs: 120_000,
  authHeaders: (channel) => ({ 'x-goog-api-key': channel.apiKey }),
  mapError: mapVeoError,
  create: {
    timeoutMs: CREATE_CALL_TIMEOUT_MS,
    taskIdOf: (answer) => (answer as { name?: unknown }).name,
    isTaskId: (name) => VEO_OPERATION_NAME.test(name),
  },
};

/**
 * Veo on the Gemini API: `POST /v1beta/models/{model}:predictLongRunning` answers an operation
 * name, `GET /v1beta/{name}` follows it; every call, the video download included, carries the
 * channel's key as `x-goog-api-key` (sent to the channel's origin only). Not de-duplicated, not cancellable.
 */
@Injectable()
export class VeoUpstreamAdapter extends BearerJsonAdapter<VeoErrorBody, VeoTaskRequest> {
  constructor(
    calls: ProviderCalls,
    private readonly images: StagedImageInputs,
  ) {
    super(calls, VEO_PROFILE);
  }

  protected async creation(task: UpstreamTask<VeoTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    const images = { image: await this.inline(request.image), lastFrame: await this.inline(request.lastFrame) };
    return { path: veoSubmitPath(task.upstreamModel), body: buildVeoSubmitBody(request, images) };
  }

  async poll(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const name = upstreamTaskIdOf(task);
    if (!VEO_OPERATION_NAME.test(name)) throw new UpstreamError('channel', `task ${task.taskId} has no usable operation name`);
    const response = await this.call(channel, 'GET', veoOperationPath(name), QUERY_CALL_TIMEOUT_MS, { task });
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
    await this.call(channel, 'GET', VEO_PROBE_PATH, QUERY_CALL_TIMEOUT_MS);
  }

  /** An image as Veo takes it: base64 bytes inline (the Gemini API takes no gcsUri). */
  private async inline(ref: StagedImageRef | undefined): Promise<VeoImage | undefined> {
    if (!ref) return undefined;
    const image = await this.images.load(ref);
    return { bytesBase64Encoded: image.bytes.toString('base64'), mimeType: image.mime };
  }
}
