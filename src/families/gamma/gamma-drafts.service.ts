import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../../auth/caller';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { validBody } from '../../common/http/validation';
import { parseGammaBody } from './gamma-body.parser';
import { GAMMA_ASSET_CHECK, GammaAssetCheck, verificationNotEnabled } from './gamma-asset-check';
import type { GammaTaskRequest } from './gamma-protocol';
import { GammaVideoRequestDto } from './gamma-request.dto';

/**
 * Family C's request schema (gamma-2-0, gamma-2-0-fast and any family C model of the catalog, with
 * verified `asset://` references): the body read against the model's catalog entry, then asset
 * ownership and state, all before anything is charged. The task may only run on channels of the
 * provider account that holds its assets.
 */
@Injectable()
export class GammaDrafts implements FamilyDrafts<GammaTaskRequest> {
  constructor(@Inject(GAMMA_ASSET_CHECK) private readonly references: GammaAssetCheck) {}

  async prepare(_name: string, input: SubmitInput, caller: Caller, catalog: CatalogModel): Promise<FamilyDraft<GammaTaskRequest>> {
    const body = await validBody(GammaVideoRequestDto, input.body);
    const { model, request, references } = parseGammaBody(body, catalog);
    const channelIds = await this.references.check(caller.user.id, references);
    // Verified portraits are part of the approved capability: revoking the approval stops the use of
    // the account's own assets too (an asset that is not its own is already a 400 above).
    if (references.some((reference) => reference.assetId) && !caller.user.verificationEnabled) throw verificationNotEnabled();
    return {
      draft: {
        platform: 'gamma',
        model,
        action: references.length > 0 ? 'referenceGenerate' : 'textGenerate',
        mode: references.length > 0 ? 'reference-to-video' : 'text-to-video',
        request,
        properties: { input: request.prompt, origin_model_name: model },
        quote: { model, resolution: request.resolution, seconds: request.duration },
        channelIds,
      },
    };
  }
}
