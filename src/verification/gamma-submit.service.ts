import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import type { SubmitOptions } from '../generations/beta-submit.service';
import type { Caller } from '../tasks/task-submit.service';
import type { TaskEntity } from '../tasks/task.entity';

/**
 * Family C submit use case (gamma-2-0, gamma-2-0-fast with verified `asset://` references),
 * called by POST /v1/video/generations for gamma models.
 */
@Injectable()
export class GammaSubmitService {
  async submit(body: Record<string, unknown>, _caller: Caller, _options: SubmitOptions = {}): Promise<TaskEntity> {
    throw AppError.invalid(`unknown model: ${String(body.model)}`, 'model');
  }
}
