import { Injectable } from '@nestjs/common';
import { HostedDrafts, HostedPlatform } from '../shared/hosted-drafts';
import { REPLICATE_USUAL_OUTPUT } from './replicate-protocol';
import { ReplicateVideoRequestDto } from './replicate-request.dto';

/** A Replicate model's body on both forms: the shared fields its route's input_map names, priced as its entry says. */
@Injectable()
export class ReplicateDrafts extends HostedDrafts {
  protected readonly hosted: HostedPlatform = {
    platform: 'replicate',
    schema: ReplicateVideoRequestDto,
    usualOutput: REPLICATE_USUAL_OUTPUT,
  };
}
