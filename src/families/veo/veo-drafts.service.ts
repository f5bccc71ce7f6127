import { Injectable } from '@nestjs/common';
import { validBody } from '../../common/http/validation';
import { StagedImageInputs, StagedImageRef } from '../shared/staged-image-inputs.service';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { jsonCopy } from '../shared/json-copy';
import { videoDraftFields } from '../shared/video-draft-fields';
import type { VeoTaskRequest } from './veo-protocol';
import { VeoImageSource, planVeoRequest, veoModelOf } from './veo-request-rules';
import { VeoVideoRequestDto } from './veo-request.dto';

/**
 * Turns a body for a Veo model (either form) into a task draft: the schema, the model's rules (read
 * from its catalog entry), then
 * its images fetched or decoded and checked (400s naming the field), all before any charge. The
 * images stay in memory until the submit is over; `task.request` keeps only their digests (and URL).
 */
@Injectable()
export class VeoDrafts implements FamilyDrafts<VeoTaskRequest> {
  constructor(private readonly images: StagedImageInputs) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, catalog: CatalogModel): Promise<FamilyDraft<VeoTaskRequest>> {
    const body = await validBody(VeoVideoRequestDto, input.body);
    const plan = planVeoRequest(model, veoModelOf(catalog), body, { ...input, seedSent: input.body.seed !== undefined });
    const releases: Array<() => void> = [];
    const stage = async (source: VeoImageSource | undefined, field: string): Promise<StagedImageRef | undefined> => {
      if (!source) return undefined;
      const staged = await this.images.prepare(source, field);
      releases.push(staged.release);
      return staged.ref;
    };
    const release = () => releases.forEach((done) => done());
    try {
      const request: VeoTaskRequest = {
        ...plan.request,
        image: await stage(plan.image, 'input_reference'),
        lastFrame: await stage(plan.lastFrame, 'last_frame'),
      };
      return {
        draft: {
          platform: 'veo',
          ...videoDraftFields(model, request.prompt ?? '', request.image !== undefined),
          mode: plan.mode,
          request: jsonCopy(request),
          ...(body.size !== undefined ? { size: body.size.toLowerCase() } : {}),
          quote: { model, resolution: request.resolution, seconds: request.durationSeconds },
        },
        release,
      };
    } catch (error) {
      release();
      throw error;
    }
  }
}
