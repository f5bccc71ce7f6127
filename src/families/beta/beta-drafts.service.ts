import { Injectable, Logger } from '@nestjs/common';
import { assertModelAllowed } from '../../auth/api-keys.service';
import type { Caller, TaskDraft } from '../../tasks/task-submit.service';
import { TaskSubmitService } from '../../tasks/task-submit.service';
import type { TaskEntity } from '../../tasks/task.entity';
import { BETA_ACTIONS, parseBetaBody, parseBetaModel, VIDEO_EDIT_BILLED_SECONDS } from './beta-body.parser';
import { BetaMediaCheckService } from './beta-media-check.service';

export interface SubmitOptions {
  idempotencyKey?: string;
}

/**
 * Family B submit use case, shared by POST /v1/video/generations and POST /v1/videos:
 * validates the family B body (400s name the field), builds the TaskDraft and submits it.
 * Every check happens before TaskSubmitService charges anything.
 */
@Injectable()
export class BetaSubmitService {
  private readonly logger = new Logger('BetaSubmit');

  constructor(
    private readonly tasks: TaskSubmitService,
    private readonly mediaCheck: BetaMediaCheckService,
  ) {}

  async submit(body: Record<string, unknown>, caller: Caller, options: SubmitOptions = {}): Promise<TaskEntity> {
    const { model } = parseBetaModel(body ?? {});
    if (caller.apiKey) assertModelAllowed(caller.apiKey, model);
    const parsed = parseBetaBody(body);
    await this.mediaCheck.checkAll(parsed.media);
    if (parsed.promptTruncated) this.logger.log(`prompt for ${model} truncated to the provider's limit (user ${caller.user.id})`);
    const { request } = parsed;
    const draft: TaskDraft = {
      platform: 'beta',
      model,
      action: BETA_ACTIONS[request.capability],
      request: { ...request },
      properties: { input: request.prompt, origin_model_name: model },
      quote: {
        model,
        resolution: request.resolution.toLowerCase(),
        seconds: request.duration ?? VIDEO_EDIT_BILLED_SECONDS,
      },
      idempotencyKey: options.idempotencyKey,
    };
    return this.tasks.submit(draft, caller);
  }
}
