import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { validBody } from '../../common/http/validation';
import type { Caller } from '../../tasks/task-draft';
import type { FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { nearestAspectRatio, parsePixelSize } from '../pixel-size';
import { BETA_ACTIONS, BETA_RATIOS, parseBetaBody, VIDEO_EDIT_BILLED_SECONDS } from './beta-body.parser';
import { BetaMediaCheckService } from './beta-media-check.service';
import { BETA_PROMPT_BUDGET } from './beta-prompt';
import { BETA_MODELS, BetaTaskRequest } from './beta-request';
import { BetaVideoRequestDto } from './beta-request.dto';

/**
 * Family B's request schema, for both forms: validates the body (400s name the field), checks its
 * media URLs with a ranged read, and builds the task draft. Nothing is charged before it returns.
 */
@Injectable()
export class BetaDrafts implements FamilyDrafts<BetaTaskRequest> {
  private readonly logger = new Logger('BetaSubmit');

  constructor(private readonly mediaCheck: BetaMediaCheckService) {}

  async prepare(model: string, input: SubmitInput, caller: Caller): Promise<FamilyDraft<BetaTaskRequest>> {
    const body = await validBody(BetaVideoRequestDto, input.form === 'flat' ? fromFlatForm(input) : input.body);
    const parsed = parseBetaBody(body, model, BETA_MODELS[model]);
    await this.mediaCheck.checkAll(parsed.media);
    if (parsed.promptTruncated) {
      this.logger.log(`prompt for ${model} truncated to the provider's limit (user ${caller.user.id})`);
      // The interface truncates (never refuses) a long family B prompt: the client is told so.
      input.warnings?.push(
        `prompt truncated to ${[...parsed.request.prompt].length} characters (family B: at most ${BETA_PROMPT_BUDGET} non-Chinese or ${BETA_PROMPT_BUDGET / 2} Chinese characters)`,
      );
    }
    const { request } = parsed;
    return {
      draft: {
        platform: 'beta',
        model,
        action: BETA_ACTIONS[request.capability],
        request,
        properties: { input: request.prompt, origin_model_name: model },
        quote: {
          model,
          resolution: request.resolution.toLowerCase(),
          seconds: request.duration ?? VIDEO_EDIT_BILLED_SECONDS,
        },
      },
    };
  }
}

/**
 * The family B body, with the OpenAI spellings of /v1/videos resolved: a pixel `size` becomes
 * `720P`/`1080P` and, unless `metadata.ratio` is given, the nearest ratio (so `720x1280` stays portrait).
 */
function fromFlatForm(input: SubmitInput): Record<string, unknown> {
  if (input.inputReferenceFile) {
    throw AppError.invalid('beta models take input_reference as a public image URL, not a file', 'input_reference');
  }
  const body = { ...input.body };
  const pixelSize = parsePixelSize(body.size);
  if (pixelSize) {
    body.size = Math.min(pixelSize.width, pixelSize.height) >= 900 ? '1080P' : '720P';
    const metadata = body.metadata ?? {};
    // A metadata that is not an object is left for the family B schema to refuse; i2v and video-edit ignore the ratio.
    if (isPlainObject(metadata) && metadata.ratio === undefined) {
      body.metadata = { ...metadata, ratio: nearestAspectRatio(pixelSize.width, pixelSize.height, BETA_RATIOS) };
    }
  }
  const reference = body.input_reference as { image_url?: unknown } | undefined;
  if (reference && typeof reference === 'object' && typeof reference.image_url === 'string') body.input_reference = reference.image_url;
  return body;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
