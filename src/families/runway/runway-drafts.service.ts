import { Injectable } from '@nestjs/common';
import { validBody } from '../../common/http/validation';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { videoDraftFields } from '../shared/video-draft-fields';
import { RunwayInputImages } from './runway-input-images.service';
import type { RunwayTaskRequest } from './runway-request';
import { planRunwayRequest, runwayModelOf } from './runway-request-rules';
import { RunwayVideoRequestDto } from './runway-request.dto';
import { planRunwaySourceRequest, type RunwaySourcePlan } from './runway-source-rules';

/** Runway's request schema on both forms: schema, the model's rules (read from its catalog entry), then its frames; priced per second. */
@Injectable()
export class RunwayDrafts implements FamilyDrafts<RunwayTaskRequest> {
  constructor(private readonly images: RunwayInputImages) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<RunwayTaskRequest>> {
    const body = await validBody(RunwayVideoRequestDto, withMultipartSeed(input));
    if (input.sourceVideo) return fromSource(model, planRunwaySourceRequest(model, runwayModelOf(catalog), body, input, input.sourceVideo));
    const plan = planRunwayRequest(model, runwayModelOf(catalog), body, input);
    const request: RunwayTaskRequest = { ...plan.request };
    const releases: Array<() => void> = [];
    const release = () => releases.forEach((done) => done());
    try {
      for (const frame of plan.frames) {
        const prepared = await this.images.prepare(frame, input.inputReferenceFile);
        if (prepared.release) releases.push(prepared.release);
        request[frame.position === 'first' ? 'firstFrame' : 'lastFrame'] = prepared.ref;
      }
    } catch (error) {
      release();
      throw error;
    }
    return {
      draft: {
        platform: 'runway',
        ...videoDraftFields(model, request.promptText ?? '', request.mode === 'image'),
        mode: plan.mode,
        request,
        // Runway's ratio is the pixel size (`1280:720`).
        size: request.ratio.replace(':', 'x'),
        quote: { model, resolution: plan.resolution, seconds: request.duration, audio: plan.audio },
      },
      release,
    };
  }
}

/** A remix: the source video edited (no frame to hold), priced by its seconds. */
function fromSource(model: string, plan: RunwaySourcePlan): FamilyDraft<RunwayTaskRequest> {
  const { request } = plan;
  return {
    draft: {
      platform: 'runway',
      ...videoDraftFields(model, request.promptText ?? '', false),
      action: 'videoEdit',
      mode: 'video-edit',
      request,
      ...(request.ratio ? { size: request.ratio.replace(':', 'x') } : {}),
      quote: { model, resolution: plan.resolution, seconds: plan.seconds, audio: false },
    },
  };
}

/** A multipart field is always a string: a whole-number `seed` becomes the number it spells. */
function withMultipartSeed(input: SubmitInput): Record<string, unknown> {
  const seed = input.body.seed;
  return input.form === 'flat' && typeof seed === 'string' && /^\d+$/.test(seed.trim())
    ? { ...input.body, seed: Number(seed) }
    : input.body;
}
