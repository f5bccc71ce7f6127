import { Injectable } from '@nestjs/common';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput, UploadedPart } from '../family';
import { HostedImageInputs, HostedImageRef } from '../shared/hosted-image-inputs.service';
import { withMultipartTypes } from '../shared/hosted-request-rules';
import { validBodyWithFirstFrame } from '../shared/input-reference';
import { videoDraftFields } from '../shared/video-draft-fields';
import { sourceVideoDraft } from '../shared/source-video-draft';
import type { WanTaskRequest } from './wan-protocol';
import { WanVideoRequestDto } from './wan-request.dto';
import { settleWanSourceRequest } from './wan-source-rules';
import { settleWanRequest } from './wan-task-rules';

/** A frame to stage: its name on the wire (none: the request has no such frame), the client's value, the field a refusal names. */
type Frame = [wireName: string | undefined, value: string | UploadedPart | undefined, field: string];

/**
 * A Wan model's body (both forms, same field names) -> a task draft: the schema, the model's rules
 * (its catalog entry and its route's wire), then the frames (a URL goes as it is, a data URI or file
 * part of at most 10 MB inline, held until the submit). Priced per second at the resolution.
 */
@Injectable()
export class WanDrafts implements FamilyDrafts<WanTaskRequest> {
  constructor(private readonly images: HostedImageInputs) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<WanTaskRequest>> {
    const { body, firstFrame } = await validBodyWithFirstFrame(WanVideoRequestDto, input, withMultipartTypes(input));
    if (input.sourceVideo) {
      const settled = settleWanSourceRequest(model, catalog, body, firstFrame !== undefined, input.sourceVideo);
      return sourceVideoDraft('wan', model, body.prompt, input.sourceVideo, settled);
    }
    const settled = settleWanRequest(model, catalog, body, input.inputReferenceFile !== undefined);
    const { frames, release } = await this.staged([
      [settled.frames.first, firstFrame, 'input_reference'],
      [settled.frames.last, body.last_frame, 'last_frame'],
    ]);
    const { protocol, mode, input: fields, extra, quote, size } = settled;
    const request: WanTaskRequest = { protocol, mode, input: fields, images: frames, extra };
    const draft = { platform: 'wan', mode, quote, request, ...videoDraftFields(model, body.prompt ?? '', mode !== 'text-to-video') };
    return { draft: size === undefined ? draft : { ...draft, size }, release };
  }

  /** The frames by wire name, and what lets go of them once the submit is over; none held when one is refused. */
  private async staged(wanted: Frame[]): Promise<{ frames: Record<string, HostedImageRef>; release: () => void }> {
    const frames: Record<string, HostedImageRef> = {};
    const releases: Array<() => void> = [];
    const release = () => releases.forEach((letGo) => letGo());
    for (const [wireName, value, field] of wanted) {
      if (wireName === undefined || value === undefined) continue;
      const prepared = await this.images.prepare(value, field).catch((error: unknown) => {
        release();
        throw error;
      });
      if (prepared.release) releases.push(prepared.release);
      frames[wireName] = prepared.ref;
    }
    return { frames, release };
  }
}
