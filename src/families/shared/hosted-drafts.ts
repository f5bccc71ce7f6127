import { Injectable, type Type } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import type { Platform } from '../../upstream/channel.entity';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { HostedImageInputs, HostedImageRef } from './hosted-image-inputs.service';
import { HostedTaskRequest, settleHostedRequest, withMultipartTypes } from './hosted-request-rules';
import { hostedRouteOf } from './hosted-route';
import type { HostedVideoRequestDto } from './hosted-video-request.dto';
import { validBodyWithFirstFrame } from './input-reference';
import { videoDraftFields } from './video-draft-fields';

/** What differs between the hosted platforms' drafts: the platform, its request class, where its answers usually hold the video. */
export interface HostedPlatform {
  platform: Platform;
  schema: Type<HostedVideoRequestDto>;
  usualOutput: string;
}

/**
 * The drafts of a hosted platform (fal, Replicate), all made by hostedDraft: each platform's
 * subclass names its `hosted` platform, and is the provider its family module lists.
 */
@Injectable()
export abstract class HostedDrafts implements FamilyDrafts<HostedTaskRequest> {
  protected abstract readonly hosted: HostedPlatform;

  constructor(private readonly images: HostedImageInputs) {}

  prepare(model: string, input: SubmitInput, _caller: Caller, catalog: CatalogModel): Promise<FamilyDraft<HostedTaskRequest>> {
    return hostedDraft(this.hosted, this.images, model, input, catalog);
  }
}

/**
 * A body on a hosted platform (fal, Replicate) -> a task draft: the schema, the request settled
 * against the model's entry and its route's `input_map`, then its images. The draft's `mode` picks
 * the route's endpoint (upstream_model by mode); the pipeline checks the draft against the entry.
 */
async function hostedDraft(
  platform: HostedPlatform,
  images: HostedImageInputs,
  model: string,
  input: SubmitInput,
  catalog: CatalogModel,
): Promise<FamilyDraft<HostedTaskRequest>> {
  const { body, firstFrame } = await validBodyWithFirstFrame(platform.schema, input, withMultipartTypes(input));
  const hosted = hostedRouteOf(catalog.route, platform.usualOutput);
  const settled = settleHostedRequest(model, catalog, hosted, body, input.inputReferenceFile !== undefined);
  const releases: Array<() => void> = [];
  const release = () => releases.forEach((letGo) => letGo());
  try {
    const staged: Record<string, HostedImageRef> = {};
    const stage = async (field: string, value: Parameters<HostedImageInputs['prepare']>[0], requestField: string) => {
      const prepared = await images.prepare(value, requestField);
      if (prepared.release) releases.push(prepared.release);
      staged[field] = prepared.ref;
    };
    if (settled.frames.first !== undefined && firstFrame !== undefined) await stage(settled.frames.first, firstFrame, 'input_reference');
    if (settled.frames.last !== undefined && body.last_frame !== undefined) await stage(settled.frames.last, body.last_frame, 'last_frame');
    const request: HostedTaskRequest = {
      mode: settled.mode,
      input: settled.input,
      images: staged,
      output: hosted.output,
      seconds: settled.quote.seconds,
    };
    return {
      draft: {
        platform: platform.platform,
        ...videoDraftFields(model, body.prompt ?? '', settled.mode !== 'text-to-video'),
        mode: settled.mode,
        request,
        ...(settled.size !== undefined ? { size: settled.size } : {}),
        quote: settled.quote,
      },
      release,
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** The endpoint's whole input: the mapped fields, and each image as the text the endpoint takes (its URL or data URI). */
export function hostedInput(request: HostedTaskRequest, uriOf: (ref: HostedImageRef) => string): Record<string, unknown> {
  const input: Record<string, unknown> = { ...request.input };
  for (const [field, ref] of Object.entries(request.images)) input[field] = uriOf(ref);
  return input;
}
