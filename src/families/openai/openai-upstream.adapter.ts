import { Injectable } from '@nestjs/common';
import { BearerJsonAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonProfile } from '../../upstream/bearer-json-profile';
import { upstreamTaskIdOf } from '../../upstream/bearer-json-task-api';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { PollOutcome } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { mapOpenAiError } from './openai-errors';
import { OpenAiInputFiles } from './openai-input-files.service';
import {
  buildOpenAiJsonBody,
  buildOpenAiMultipartBody,
  OPENAI_MODELS_PATH,
  OPENAI_VIDEOS_PATH,
  openAiContentPath,
  OpenAiErrorBody,
  OpenAiTaskRequest,
  openAiVideoPath,
} from './openai-protocol';
import { mapOpenAiVideo } from './openai-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

/** JSON, or multipart with the `input_reference` file. */
function openAiSubmitBody(task: UpstreamTask<OpenAiTaskRequest>, files: OpenAiInputFiles): unknown {
  const { request } = task;
  return request.inputFile
    ? buildOpenAiMultipartBody(request, task.upstreamModel, {
        bytes: files.load(request.inputFile),
        filename: request.inputFile.filename,
        mime: request.inputFile.mime,
      })
    : buildOpenAiJsonBody(request, task.upstreamModel);
}

const OPENAI_PROFILE: BearerJsonProfile<OpenAiErrorBody> = {
  platform: 'openai',
  provider: 'family O',
  // The protocol suggests polling every 5 to 10 s.
  defaultPollIntervalMs: 5_000,
  expectedDurationMs: 120_000,
  mapError: mapOpenAiError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: (answer) => (answer as { id?: unknown }).id },
};

/**
 * Family O: any server speaking OpenAI's Videos API (OpenAI, another gateway, this one). Submit
 * `POST /videos` (JSON, or multipart with an `input_reference` file), follow `GET /videos/{id}`,
 * download `GET /videos/{id}/content` with the channel's key.
 */
@Injectable()
export class OpenAiUpstreamAdapter extends BearerJsonAdapter<OpenAiErrorBody, OpenAiTaskRequest> {
  constructor(
    calls: ProviderCalls,
    private readonly files: OpenAiInputFiles,
  ) {
    super(calls, OPENAI_PROFILE);
  }

  protected async creation(task: UpstreamTask<OpenAiTaskRequest>): Promise<ProviderCreate> {
    return { path: OPENAI_VIDEOS_PATH, body: openAiSubmitBody(task, this.files) };
  }

  async poll(task: UpstreamTask<OpenAiTaskRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const id = upstreamTaskIdOf(task);
    const response = await this.call(channel, 'GET', openAiVideoPath(id), QUERY_CALL_TIMEOUT_MS, { task });
    return mapOpenAiVideo(response.data, `${channel.baseUrl}${openAiContentPath(id)}`, this.linkPolicy(channel));
  }

  /** The content URL does not change; it only needs the key (sent to the channel's origin only). */
  videoDownloadHeaders(channel: ChannelEntity): Record<string, string> {
    return { Authorization: `Bearer ${channel.apiKey}` };
  }

  /** The upstream's `GET /models` (`{data: [{id}]}`), ids sorted: what a route of this channel may name. */
  async upstreamModels(channel: ChannelEntity): Promise<string[]> {
    const { data } = await this.call(channel, 'GET', OPENAI_MODELS_PATH, QUERY_CALL_TIMEOUT_MS);
    const listed = Array.isArray(data?.data) ? (data.data as unknown[]) : [];
    const ids = listed.map((model) => (model as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string' && id !== '');
    return [...new Set(ids)].sort();
  }

  /** Listing one video proves the key works without generating anything. */
  async probe(channel: ChannelEntity): Promise<void> {
    await this.call(channel, 'GET', `${OPENAI_VIDEOS_PATH}?limit=1`, QUERY_CALL_TIMEOUT_MS);
  }
}
