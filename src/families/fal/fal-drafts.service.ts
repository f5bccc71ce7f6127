import { Injectable } from '@nestjs/common';
import { HostedDrafts, HostedPlatform } from '../shared/hosted-drafts';
import { FAL_USUAL_OUTPUT } from './fal-protocol';
import { FalVideoRequestDto } from './fal-request.dto';

/** A fal model's body on both forms: the shared fields its route's input_map names, priced as its entry says. */
@Injectable()
export class FalDrafts extends HostedDrafts {
  protected readonly hosted: HostedPlatform = { platform: 'fal', schema: FalVideoRequestDto, usualOutput: FAL_USUAL_OUTPUT };
}
