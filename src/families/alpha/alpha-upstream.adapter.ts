import { Inject, Injectable } from '@nestjs/common';
import { isShowableLink } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { probeWithUnknownTask } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { channelLinkPolicy } from '../../upstream/channel-link-policy';
import { PollOutcome, SubmitDeadline, SubmitOutcome, UpstreamAdapter, UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { AlphaApiClient } from './alpha-api.client';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { parseAlphaModel } from './alpha-models';
import { ALPHA_STATUS, toPollOutcome } from './alpha-result';
import { AlphaTaskRequest, generateBody } from './alpha-task-request';
import { deterministicTraceId } from './alpha-trace-id';

/** Family A (`alpha/<version>`): image upload, text and image generation, result queries. */
@Injectable()
export class AlphaUpstreamAdapter implements UpstreamAdapter<AlphaTaskRequest> {
  readonly platform = 'alpha' as const;
  readonly defaultPollIntervalMs = 4000;
  readonly expectedDurationMs = 60_000;
  /** The submit's Ai-trace-id comes from the task id, and the provider de-duplicates on it. */
  readonly idempotentSubmit = true;

  constructor(
    private readonly api: AlphaApiClient,
    private readonly images: StagedImageInputs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The upstream model is the version alone: `alpha/v6` -> `v6`. */
  defaultUpstreamModel(publicModel: string): string {
    return parseAlphaModel(publicModel) ?? publicModel.replace(/^alpha\//, '').toLowerCase();
  }

  async submit(
    task: UpstreamTask<AlphaTaskRequest>,
    channel: ChannelEntity,
    deadline?: SubmitDeadline,
  ): Promise<SubmitOutcome<AlphaTaskRequest>> {
    const { request } = task;
    let imgId = request.img_id;
    let uploaded = false;
    if (request.mode === 'image' && imgId === undefined) {
      if (!request.image) throw new UpstreamError('invalid_input', 'image-to-video needs an image');
      const image = await this.images.load(request.image);
      // The img_id belongs to this channel's provider account, so a fallback channel uploads again.
      imgId = await this.api.uploadImage(
        channel,
        image,
        deterministicTraceId(task.taskId, channel.id, 'upload'),
        deadline,
        task.gatewayHops,
      );
      uploaded = true;
    }
    const videoId = await this.api.generate(
      channel,
      request.mode === 'image' ? 'img' : 'text',
      generateBody(task.upstreamModel, request, imgId),
      deterministicTraceId(task.taskId, channel.id, 'generate'),
      deadline,
      task.gatewayHops,
    );
    return { upstreamTaskId: videoId, requestPatch: uploaded ? { img_id: imgId } : undefined };
  }

  async poll(task: UpstreamTask<AlphaTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const { result } = await this.api.result(channel, task.upstreamTaskId!);
    const outcome = toPollOutcome(result, channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
    // A missing link, or one that may not be shown (file://, link-local...): the next query may hand out a usable one.
    if (outcome.state === 'succeeded' && !outcome.videoUrl) throw new UpstreamError('transient', 'succeeded without a usable video url');
    return outcome;
  }

  /** The provider's URLs are temporary: a fresh query gives a fresh one. */
  async refreshVideoUrl(task: UpstreamTask<AlphaTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    if (!task.upstreamTaskId) return null;
    const { result } = await this.api.result(channel, task.upstreamTaskId);
    const showable = isShowableLink(result.url, channelLinkPolicy(channel, this.config.mediaAllowPrivateHosts));
    return Number(result.status) === ALPHA_STATUS.succeeded && showable ? (result.url as string) : null;
  }

  /** Any envelope answer to a query proves reachability and the key; auth and transport trouble throw. */
  async probe(channel: ChannelEntity): Promise<void> {
    await probeWithUnknownTask(() => this.api.result(channel, '0'), ['invalid_input']);
  }
}
