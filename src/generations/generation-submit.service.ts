import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { modelOf } from '../common/validation';
import type { Caller } from '../tasks/task-submit.service';
import type { TaskEntity } from '../tasks/task.entity';
import { GammaSubmitService } from '../families/gamma/gamma-drafts.service';
import { BetaSubmitService, SubmitOptions } from '../families/beta/beta-drafts.service';

const GAMMA_MODELS = ['gamma-2-0', 'gamma-2-0-fast'];
/** The task record's idempotency_key column. */
const MAX_IDEMPOTENCY_KEY = 255;

/** POST /v1/video/generations: family B models to BetaSubmitService, family C to GammaSubmitService. */
@Injectable()
export class GenerationSubmitService {
  constructor(
    private readonly beta: BetaSubmitService,
    private readonly gamma: GammaSubmitService,
  ) {}

  submit(body: unknown, caller: Caller, options: SubmitOptions): Promise<TaskEntity> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalid('request body must be a JSON object');
    if (options.idempotencyKey !== undefined && options.idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
      throw AppError.invalid(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters`, 'Idempotency-Key');
    }
    const fields = body as Record<string, unknown>;
    const name = modelOf(fields);
    // Each family's use case checks the key's model allowlist itself (it is also reached from /v1/videos).
    if (GAMMA_MODELS.includes(name.toLowerCase())) return this.gamma.submit(fields, caller, options);
    if (name.toLowerCase().startsWith('beta-')) return this.beta.submit(fields, caller, options);
    throw AppError.invalid(`unknown model: ${name}`, 'model');
  }
}
