import { Injectable } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { hostedDraft, HostedPlatform } from '../shared/hosted-drafts';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import type { HostedTaskRequest } from '../shared/hosted-request-rules';
import { FAL_USUAL_OUTPUT } from './fal-protocol';
import { FalVideoRequestDto } from './fal-request.dto';

const FAL: HostedPlatform = { platform: 'fal', schema: FalVideoRequestDto, usualOutput: FAL_USUAL_OUTPUT };

/** A fal model's body on both forms: the shared fields its route's input_map names, priced as its entry says. */
@Injectable()
export class FalDrafts implements FamilyDrafts<HostedTaskRequest> {
  constructor(private readonly images: HostedImageInputs) {}

  prepare(model: string, input: SubmitInput, _caller: Caller, catalog: CatalogModel): Promise<FamilyDraft<HostedTaskRequest>> {
    return hostedDraft(FAL, this.images, model, input, catalog);
  }
}
