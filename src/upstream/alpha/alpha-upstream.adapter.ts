import { Injectable } from '@nestjs/common';
import type { TaskEntity } from '../../tasks/task.entity';
import type { ChannelEntity } from '../channel.entity';
import { PollOutcome, SubmitOutcome, UpstreamAdapter, UpstreamError } from '../upstream-adapter';
import { AlphaApiClient } from './alpha-api.client';
import { AlphaImageInputs } from './alpha-image-inputs.service';
import { parseAlphaModel } from './alpha-models';
import { ALPHA_STATUS, toPollOutcome } from './alpha-result';
import { AlphaTaskRequest, generateBody } from './alpha-task-request';
import { deterministicTraceId } from './alpha-trace-id';

/** Family A (`alpha/<version>`): image upload, text and image generation, result queries. */
@Injectable()
export class AlphaUpstreamAdapter implements UpstreamAdapter {
  readonly platform = 'alpha' as const;
  readonly defaultPollIntervalMs = 4000;
  readonly expectedDurationMs = 60_000;
  /** The submit's Ai-trace-id comes from the task id, and the provider de-duplicates on it. */
  readonly idempotentSubmit = true;

  constructor(
    private readonly api: AlphaApiClient,
    private readonly images: AlphaImageInputs,
  ) {}

  /** The upstream model is the version alone: `alpha/v6` -> `v6`. */
  defaultUpstreamModel(publicModel: string): string {
    return parseAlphaModel(publicModel) ?? publicModel.replace(/^alpha\//, '').toLowerCase();
  }

  async submit(task: TaskEntity, channel: ChannelEntity): Promise<SubmitOutcome> {
    const request = task.request as unknown as AlphaTaskRequest;
    let imgId = request.img_id;
    let uploaded = false;
    if (request.mode === 'image' && imgId === undefined) {
      if (!request.image) throw new UpstreamError('invalid_input', 'image-to-video needs an image');
      const image = await this.images.load(request.image);
      // The img_id belongs to this channel's provider account, so a fallback channel uploads again.
      imgId = await this.api.uploadImage(channel, image, deterministicTraceId(task.taskId, channel.id, 'upload'));
      uploaded = true;
    }
    const videoId = await this.api.generate(
      channel,
      request.mode === 'image' ? 'img' : 'text',
      generateBody(task.upstreamModel, request, imgId),
      deterministicTraceId(task.taskId, channel.id, 'generate'),
    );
    return { upstreamTaskId: videoId, requestPatch: uploaded ? { img_id: imgId } : undefined };
  }

  async poll(task: TaskEntity, channel: ChannelEntity): Promise<PollOutcome> {
    const { result, raw } = await this.api.result(channel, task.upstreamTaskId!);
    const outcome = toPollOutcome(result, raw);
    if (outcome.state === 'succeeded' && !outcome.videoUrl) throw new UpstreamError('transient', 'succeeded without a video url');
    return outcome;
  }

  /** The provider's URLs are temporary: a fresh query gives a fresh one. */
  async refreshVideoUrl(task: TaskEntity, channel: ChannelEntity): Promise<string | null> {
    if (!task.upstreamTaskId) return null;
    const { result } = await this.api.result(channel, task.upstreamTaskId);
    return Number(result.status) === ALPHA_STATUS.succeeded && typeof result.url === 'string' && result.url ? result.url : null;
  }

  /** Any envelope answer to a query proves reachability and the key; auth and transport trouble throw. */
  async probe(channel: ChannelEntity): Promise<void> {
    try {
      await this.api.result(channel, '0');
    } catch (error) {
      if (error instanceof UpstreamError && error.kind === 'invalid_input') return;
      throw error;
    }
  }
}
