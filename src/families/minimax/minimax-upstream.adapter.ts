import { Injectable } from '@nestjs/common';
import { isShowableLink } from '../../common/urls/url-guard';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
import { probeWithUnknownTask, succeededVideoUrl, upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { FAILURE, failureReason } from '../../upstream/failure-reason';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { CALLBACK_URL_IN_BODY, type ProviderPush } from '../../upstream/push/provider-push';
import { mapMinimaxError, minimaxAnswerError } from './minimax-errors';
import { MinimaxInputImages } from './minimax-input-images.service';
import {
  buildMinimaxSubmitBody,
  MINIMAX_SUBMIT_PATH,
  MinimaxAnswer,
  type MinimaxImage,
  minimaxQueryPath,
  minimaxRetrievePath,
  MinimaxRetrieveAnswer,
  MinimaxSubmitAnswer,
  MinimaxTaskRequest,
} from './minimax-protocol';
import { readMinimaxQuery } from './minimax-query-mapping';
import { isMinimaxV2Error, mapMinimaxV2Error, mapMinimaxV2Query } from './minimax-v2-mapping';
import { buildMinimaxV2Body, MINIMAX_V2_SUBMIT_PATH, minimaxV2QueryPath } from './minimax-v2-protocol';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

/**
 * The task id of a submit answer; a `base_resp` error (MiniMax answers them with HTTP 200) is thrown
 * as its kind. An answer with no `base_resp` states no refusal: without a task id, it may have been accepted.
 */
function minimaxTaskIdOf(answer: unknown): unknown {
  // v2 answers an error with its envelope, sometimes under HTTP 200.
  if (isMinimaxV2Error(answer)) throw mapMinimaxV2Error(200, answer, undefined, Date.now());
  const error = minimaxAnswerError(answer);
  if (error && error.details.upstreamCode !== undefined) throw error;
  return (answer as MinimaxSubmitAnswer).task_id;
}

/** MiniMax's check of a callback URL, `{"challenge": "..."}`: answered with the same; null for any other callback. */
export function minimaxChallengeAnswer(body: unknown): { challenge: string } | null {
  const challenge = (body as { challenge?: unknown } | null)?.challenge;
  return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 256 ? { challenge } : null;
}

const MINIMAX_PROFILE: BearerJsonProfile<MinimaxAnswer> = {
  platform: 'minimax',
  provider: 'MiniMax',
  // MiniMax suggests polling about every 10 s.
  defaultPollIntervalMs: 10_000,
  expectedDurationMs: 180_000,
  mapError: (status, body, retryAfter, now) =>
    isMinimaxV2Error(body) ? mapMinimaxV2Error(status, body, retryAfter, now) : mapMinimaxError(status, body, retryAfter, now),
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: minimaxTaskIdOf, isTaskId: (id) => id.length > 0 && id.length <= 64 },
};

/**
 * MiniMax, by the task's API. v1 (Hailuo): submit `POST /v1/video_generation`, follow
 * `GET /v1/query/video_generation?task_id=`, and once it succeeded ask `GET /v1/files/retrieve?file_id=`
 * for the download URL (pre-signed, about 9 h: a fresh one is asked for when it expired). v2
 * (MiniMax-H3): submit `POST /v2/video_generation` (a `content` array), follow
 * `GET /v2/query/video_generation/{id}`, whose answer holds the time-limited URL (a fresh query hands
 * out a new one). Bearer on every call.
 */
@Injectable()
export class MinimaxUpstreamAdapter extends BearerJsonAdapter<MinimaxAnswer, MinimaxTaskRequest> {
  /** `callback_url` in the create body; MiniMax first checks the URL with a challenge to echo, and signs nothing. */
  readonly push: ProviderPush = { ...CALLBACK_URL_IN_BODY, handshake: minimaxChallengeAnswer };

  constructor(
    calls: ProviderCalls,
    private readonly images: MinimaxInputImages,
  ) {
    super(calls, MINIMAX_PROFILE);
  }

  protected async creation(task: UpstreamTask<MinimaxTaskRequest>): Promise<ProviderCreate> {
    const image = (ref: MinimaxImage) => this.images.toProviderValue(ref);
    if (task.request.api === 'v2')
      return { path: MINIMAX_V2_SUBMIT_PATH, body: buildMinimaxV2Body(task.request, task.upstreamModel, image) };
    return { path: MINIMAX_SUBMIT_PATH, body: buildMinimaxSubmitBody(task.request, task.upstreamModel, image) };
  }

  async poll(task: UpstreamTask<MinimaxTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    if (task.request.api === 'v2') {
      const answer = await this.call(channel, 'GET', minimaxV2QueryPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
      return mapMinimaxV2Query(answer.data, this.linkPolicy(channel));
    }
    const query = await this.call(channel, 'GET', minimaxQueryPath(upstreamTaskIdOf(task)), QUERY_CALL_TIMEOUT_MS, { task });
    const { fileId, ...reading } = readMinimaxQuery(query.data);
    if (reading.state !== 'succeeded') return reading;
    const videoUrl = await this.downloadUrl(task, channel, fileId!);
    if (!isShowableLink(videoUrl, this.linkPolicy(channel)))
      return {
        state: 'failed',
        failReason: failureReason(FAILURE.generation, 'the provider handed out a video link that cannot be used'),
        raw: reading.raw,
      };
    return { ...reading, progress: 100, videoUrl };
  }

  /** The download URL expires (about 9 h): a fresh query and retrieve hand out a new one. */
  async refreshVideoUrl(task: UpstreamTask<MinimaxTaskRequest>, channel: ChannelEntity): Promise<string | null> {
    return succeededVideoUrl(await this.poll(task, channel));
  }

  /** Querying a task id that cannot exist proves the key works without generating anything. */
  async probe(channel: ChannelEntity): Promise<void> {
    await probeWithUnknownTask(async () => {
      const answer = await this.call(channel, 'GET', minimaxQueryPath('0'), QUERY_CALL_TIMEOUT_MS);
      const error = minimaxAnswerError(answer.data);
      if (error) throw error;
    });
  }

  /** `files/retrieve`: the file's pre-signed URL (its `base_resp` checked like every answer's). */
  private async downloadUrl(task: UpstreamTask<MinimaxTaskRequest>, channel: ChannelEntity, fileId: string): Promise<string | undefined> {
    const answer = (await this.call(channel, 'GET', minimaxRetrievePath(fileId), QUERY_CALL_TIMEOUT_MS, { task }))
      .data as MinimaxRetrieveAnswer;
    const error = minimaxAnswerError(answer);
    if (error) throw error;
    return answer?.file?.download_url ?? answer?.file?.backup_download_url;
  }
}
