import { Injectable } from '@nestjs/common';
import { BearerJsonTaskAdapter, ProviderCreate } from '../../upstream/bearer-json-adapter';
import type { BearerJsonTaskProfile } from '../../upstream/bearer-json-profile';
import type { ChannelEntity } from '../../upstream/channel.entity';
import { UpstreamError } from '../../upstream/upstream-adapter';
import type { UpstreamTask } from '../../upstream/upstream-task';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { mapXaiError } from './xai-errors';
import { buildXaiBody, xaiCreatePath, XaiErrorBody, xaiQueryPath, xaiRequestIdOf, XaiTaskRequest } from './xai-protocol';
import { mapXaiQuery } from './xai-query-mapping';
import { ProviderCalls } from '../../upstream/provider-calls';
import { CREATE_CALL_TIMEOUT_MS, QUERY_CALL_TIMEOUT_MS } from '../../upstream/provider-call-timeouts';

const PROBE_REQUEST_ID = '00000000-0000-0000-0000-000000000000';

const XAI_PROFILE: BearerJsonTaskProfile<XaiErrorBody, XaiTaskRequest> = {
  platform: 'xai',
  provider: 'xAI',
  // vercel/ai polls every 5 s (the SDK every second).
  defaultPollIntervalMs: 5_000,
  expectedDurationMs: 90_000,
  // The official SDK: "The returned URL is valid for 24 hours" (xai_sdk/video.py); the docs only say ephemeral.
  outputExpiresAfterMs: 24 * 3_600_000,
  emptyAnswers: true,
  mapError: mapXaiError,
  create: { timeoutMs: CREATE_CALL_TIMEOUT_MS, taskIdOf: xaiRequestIdOf },
  queryPath: xaiQueryPath,
  queryTimeoutMs: QUERY_CALL_TIMEOUT_MS,
  probeTaskId: PROBE_REQUEST_ID,
  // 202 while the video is being made (its body may be empty).
  mapQuery: (body, policy, httpStatus) => mapXaiQuery(httpStatus, body, policy),
};

/**
 * xAI's Grok Imagine video API: Bearer key; submit `POST /v1/videos/generations` (or `/edits`, `/extensions`
 * for a remix) (`{request_id}`),
 * follow `GET /v1/videos/{id}` (202 while running, maybe with no body), download `video.url` (no key,
 * short-lived). `usage.cost_in_usd_ticks` is the provider's usage. xAI has no cancel: no `cancel`
 * here, so a client's cancel of a task xAI has is a 409 `cancel_not_supported`.
 */
@Injectable()
export class XaiUpstreamAdapter extends BearerJsonTaskAdapter<XaiErrorBody, XaiTaskRequest> {
  constructor(
    calls: ProviderCalls,
    private readonly images: UrlOrInlineImages,
  ) {
    super(calls, XAI_PROFILE);
  }

  /** `POST /v1/videos/generations` (`/edits`, `/extensions` from a source video), answered `{request_id}`. */
  protected async creation(task: UpstreamTask<XaiTaskRequest>): Promise<ProviderCreate> {
    const { request } = task;
    const image = request.image ? await this.images.wire(request.image) : undefined;
    return { path: xaiCreatePath(request), body: buildXaiBody(request, task.upstreamModel, image) };
  }

  /** A query of a request that cannot exist: xAI's own 404 proves the key (a bad key is its 400 first). */
  async probe(channel: ChannelEntity): Promise<void> {
    try {
      await this.call(channel, 'GET', xaiQueryPath(PROBE_REQUEST_ID), QUERY_CALL_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof UpstreamError && (error.details.upstreamCode === 'not_found' || error.kind === 'invalid_input')) return;
      throw error;
    }
  }
}
