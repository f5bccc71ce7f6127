import { Injectable } from '@nestjs/common';
import { assertModelAllowed } from '../auth/api-keys.service';
import type { ApiKeyEntity } from '../auth/api-key.entity';
import { AppError } from '../common/app-error';
import { modelOf } from '../common/validation';
import { BETA_RATIOS } from '../families/beta/beta-body.parser';
import { BetaSubmitService } from '../families/beta/beta-drafts.service';
import type { TaskEntity } from '../tasks/task.entity';
import { Caller, TaskSubmitService } from '../tasks/task-submit.service';
import { nearestAspectRatio, parseAlphaModel } from '../families/alpha/alpha-models';
import { AlphaVideoDrafts } from '../families/alpha/alpha-drafts.service';
import { NormalizedSubmit, parsePixelSize } from './submit-body';

const MAX_IDEMPOTENCY_KEY = 255;

/**
 * `POST /v1/videos`: family A is validated and submitted here; `beta-*` bodies go to the family B
 * submit use case; `gamma-*` models are only served on `/v1/video/generations`.
 */
@Injectable()
export class VideoSubmitService {
  constructor(
    private readonly alphaDrafts: AlphaVideoDrafts,
    private readonly submitter: TaskSubmitService,
    private readonly beta: BetaSubmitService,
  ) {}

  async submit(submit: NormalizedSubmit, caller: Caller & { apiKey: ApiKeyEntity }, idempotencyKey?: string): Promise<TaskEntity> {
    const model = modelOf(submit.body);
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY)) {
      throw AppError.invalid(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, 'Idempotency-Key');
    }
    if (model.startsWith('beta-')) {
      assertModelAllowed(caller.apiKey, model);
      return this.beta.submit(toBetaBody(submit), caller, { idempotencyKey });
    }
    if (model.startsWith('gamma-')) throw AppError.invalid(`model ${model} is not served on /v1/videos; submit it on /v1/video/generations`, 'model');
    const version = parseAlphaModel(model);
    if (!version) throw AppError.invalid(`unknown model: ${model}`, 'model');
    assertModelAllowed(caller.apiKey, model);
    const { draft, release } = await this.alphaDrafts.prepare(submit, version);
    try {
      return await this.submitter.submit({ ...draft, idempotencyKey }, caller);
    } finally {
      release();
    }
  }
}

/**
 * The family B body, with the OpenAI spellings of /v1/videos resolved: a pixel `size` becomes
 * `720P`/`1080P` and, unless `metadata.ratio` is given, the nearest ratio (so `720x1280` stays portrait).
 */
function toBetaBody(submit: NormalizedSubmit): Record<string, unknown> {
  if (submit.inputReferenceFile) {
    throw AppError.invalid('beta models take input_reference as a public image URL, not a file', 'input_reference');
  }
  const body = { ...submit.body };
  const pixelSize = parsePixelSize(body.size);
  if (pixelSize) {
    body.size = Math.min(pixelSize.width, pixelSize.height) >= 900 ? '1080P' : '720P';
    const metadata = body.metadata ?? {};
    // A metadata that is not an object is left for the family B parser to refuse; i2v and video-edit ignore the ratio.
    if (isPlainObject(metadata) && metadata.ratio === undefined) {
      body.metadata = { ...metadata, ratio: nearestAspectRatio(pixelSize.width, pixelSize.height, BETA_RATIOS) };
    }
  }
  const reference = body.input_reference as { image_url?: unknown } | undefined;
  if (reference && typeof reference === 'object' && typeof reference.image_url === 'string') body.input_reference = reference.image_url;
  return body;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
