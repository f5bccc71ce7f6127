import { Injectable } from '@nestjs/common';
import { assertModelAllowed } from '../../auth/api-keys.service';
import type { SubmitOptions } from '../beta/beta-drafts.service';
import { Caller, TaskDraft, TaskSubmitService } from '../../tasks/task-submit.service';
import type { TaskEntity } from '../../tasks/task.entity';
import { AssetReferencesService } from '../../verification/asset-references.service';
import { parseGammaBody } from './gamma-body.parser';
import { verificationNotEnabled } from '../../verification/verification-access.guard';

/**
 * Family C submit use case (gamma-2-0, gamma-2-0-fast with verified `asset://` references),
 * called by POST /v1/video/generations for gamma models. Every check (body, asset ownership and
 * state) happens before TaskSubmitService charges anything.
 */
@Injectable()
export class GammaSubmitService {
  constructor(
    private readonly tasks: TaskSubmitService,
    private readonly references: AssetReferencesService,
  ) {}

  async submit(body: Record<string, unknown>, caller: Caller, options: SubmitOptions = {}): Promise<TaskEntity> {
    const { model, request, references } = parseGammaBody(body ?? {});
    if (caller.apiKey) assertModelAllowed(caller.apiKey, model);
    const channelIds = await this.references.check(caller.user.id, references);
    // Verified portraits are part of the approved capability: revoking the approval stops the use of
    // the account's own assets too (an asset that is not its own is already a 400 above).
    if (references.some((reference) => reference.assetId) && !caller.user.verificationEnabled) throw verificationNotEnabled();
    const draft: TaskDraft = {
      platform: 'gamma',
      model,
      action: references.length > 0 ? 'referenceGenerate' : 'textGenerate',
      request: { ...request },
      properties: { input: request.prompt, origin_model_name: model },
      quote: { model, resolution: request.resolution, seconds: request.duration },
      idempotencyKey: options.idempotencyKey,
      channelIds,
    };
    return this.tasks.submit(draft, caller);
  }
}
