import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
import { succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { InlineVideo, PollOutcome, UpstreamError } from '../../upstream/upstream-adapter';
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
import { isInteractionsModel } from './omni-models';
import { mapOmniInteraction, omniInlineVideo } from './omni-interaction-mapping';
import {
  buildOmniCreateBody,
  OMNI_CREATE_PATH,
  OMNI_INTERACTION_ID,
  omniAnswerMaxBytes,
  omniCancelPath,
  omniInteractionPath,
} from './omni-protocol';
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
    // Veo answers an operation `{name}`, Gemini Omni an interaction `{id, status}`.
    taskIdOf: (answer) => (answer as { name?: unknown }).name ?? (answer as { id?: unknown }).id,
    isTaskId: (id) => VEO_OPERATION_NAME.test(id) || OMNI_INTERACTION_ID.test(id),
  },
};

/**
 * Google's video on the Gemini API, the wire chosen by the route's upstream model. Veo:
 * `POST /v1beta/models/{model}:predictLongRunning` answers an operation name, `GET /v1beta/{name}`
 * follows it, and it cannot be cancelled. Gemini Omni: `POST /v1beta/interactions` (in the background)
 * answers an interaction, `GET /v1beta/interactions/{id}` follows it, `POST …/{id}/cancel` stops it.
 * Every call, the video download included, carries the channel's key as `x-goog-api-key` (sent to the
 * channel's origin only). Not de-duplicated.
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
    if (isInteractionsModel(task.upstreamModel))
      return { path: OMNI_CREATE_PATH, body: buildOmniCreateBody(task.upstreamModel, { ...request, ...images }) };
    return { path: veoSubmitPath(task.upstreamModel), body: buildVeoSubmitBody(request, images) };
  }

  async poll(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const name = upstreamTaskIdOf(task);
    if (isInteractionsModel(task.upstreamModel))
      return mapOmniInteraction(await this.readInteraction(task, channel), this.linkPolicy(channel));
    if (!VEO_OPERATION_NAME.test(name)) throw new UpstreamError('channel', `task ${task.taskId} has no usable operation name`);
    const response = await this.call(channel, 'GET', veoOperationPath(name), QUERY_CALL_TIMEOUT_MS, { task });
    return mapVeoOperation(response.data, this.linkPolicy(channel));
  }

  /** The operation keeps handing out the same file URI while Google keeps the video (2 days). */
  async refreshVideoUrl(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.poll(task, channel));
  }

  /**
   * Gemini Omni's video answered inline (base64 `data`): the interaction read again (Google keeps it, `store: true`),
   * its bytes decoded once; null when it carries none now. Only the archive and the content relay ask.
   */
  async inlineVideo(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<InlineVideo | null> {
    if (!isInteractionsModel(task.upstreamModel)) return null;
    return omniInlineVideo(await this.readInteraction(task, channel));
  }

  /** The file download needs the key too (Google's answer may redirect to signed storage, which gets no key). */
  videoDownloadHeaders(channel: ChannelEntity): Record<string, string> {
    return { 'x-goog-api-key': channel.apiKey };
  }

  /**
   * Gemini Omni: `POST /v1beta/interactions/{id}/cancel` (the interaction then reads `cancelled`). A Veo
   * operation cannot be cancelled: refused without a call, so the client's cancel is a 409 cancel_not_supported.
   */
  async cancel(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<void> {
    if (!isInteractionsModel(task.upstreamModel)) throw new UpstreamError('invalid_input', 'a Veo operation cannot be cancelled');
    await this.call(channel, 'POST', omniCancelPath(this.interactionId(task)), QUERY_CALL_TIMEOUT_MS, { task });
  }

  async probe(channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'GET', VEO_PROBE_PATH, QUERY_CALL_TIMEOUT_MS);
  }

  /** `GET /v1beta/interactions/{id}`, whose answer may carry the video inline: allowed to be as large as such a video. */
  private async readInteraction(task: UpstreamTask<VeoTaskRequest>, channel: ChannelEntity): Promise<unknown> {
    const path = omniInteractionPath(this.interactionId(task));
    const maxBodyBytes = omniAnswerMaxBytes(this.calls.config.videoMaxBytes);
    return (await this.call(channel, 'GET', path, QUERY_CALL_TIMEOUT_MS, { task, maxBodyBytes })).data;
  }

  private interactionId(task: UpstreamTask<VeoTaskRequest>): string {
    const id = upstreamTaskIdOf(task);
    if (!OMNI_INTERACTION_ID.test(id)) throw new UpstreamError('channel', `task ${task.taskId} has no usable interaction id`);
    return id;
  }

  /** An image as Veo takes it: base64 bytes inline (the Gemini API takes no gcsUri). */
  private async inline(ref: StagedImageRef | undefined): Promise<VeoImage | undefined> {
    if (!ref) return undefined;
    const image = await this.images.load(ref);
    return { bytesBase64Encoded: image.bytes.toString('base64'), mimeType: image.mime };
  }
}
