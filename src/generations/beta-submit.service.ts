import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import type { Caller } from '../tasks/task-submit.service';
import type { TaskEntity } from '../tasks/task.entity';

export interface SubmitOptions {
  idempotencyKey?: string;
}

/**
 * Family B submit use case, shared by POST /v1/video/generations and POST /v1/videos:
 * validates the family B body (400s name the field), builds the TaskDraft and submits it.
 */
@Injectable()
export class BetaSubmitService {
  async submit(body: Record<string, unknown>, _caller: Caller, _options: SubmitOptions = {}): Promise<TaskEntity> {
    throw AppError.invalid(`unknown model: ${String(body.model)}`, 'model');
  }
}
