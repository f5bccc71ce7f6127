import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { validBody } from '../../common/http/validation';
import type { Caller } from '../../auth/caller';
import type { CatalogEntry } from '../../catalog/catalog-entry';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { nearestAspectRatio, parsePixelSize } from '../pixel-size';
import {
  BETA_ACTIONS,
  BETA_MODE_OF,
  betaModelOf,
  betaRatiosOf,
  betaResolutionsOf,
  parseBetaBody,
  videoEditBilledSeconds,
} from './beta-body.parser';
import { BetaMediaCheckService } from './beta-media-check.service';
import type { BetaTaskRequest } from './beta-request';
import { BetaVideoRequestDto } from './beta-request.dto';

/**
 * Family B's request schema, for both forms: validates the body (400s name the field), reads the
 * model's catalog entry (its modes, lengths, sizes, ratios, prompt budget and reference images),
 * checks its media URLs with a ranged read, and builds the task draft. Nothing is charged before it returns.
 */
@Injectable()
export class BetaDrafts implements FamilyDrafts<BetaTaskRequest> {
  private readonly logger = new Logger('BetaSubmit');

  constructor(private readonly mediaCheck: BetaMediaCheckService) {}

  async prepare(model: string, input: SubmitInput, caller: Caller, catalog: CatalogModel): Promise<FamilyDraft<BetaTaskRequest>> {
    const { entry } = catalog;
    const body = await validBody(BetaVideoRequestDto, input.form === 'flat' ? fromFlatForm(input, entry) : input.body);
    const parsed = parseBetaBody(body, model, betaModelOf(catalog));
    await this.mediaCheck.checkAll(parsed.media);
    if (parsed.promptTruncated) {
      this.logger.log(`prompt for ${model} truncated to the provider's limit (user ${caller.user.id})`);
      // The interface truncates (never refuses) a long family B prompt: the client is told so.
      const budget = parsed.promptBudget;
      input.warnings?.push(
        `prompt truncated to ${[...parsed.request.prompt].length} characters (family B: at most ${budget} non-Chinese or ${Math.floor(budget / 2)} Chinese characters)`,
      );
    }
    const { request } = parsed;
    return {
      draft: {
        platform: 'beta',
        model,
        action: BETA_ACTIONS[request.capability],
        mode: BETA_MODE_OF[request.capability],
        request,
        properties: { input: request.prompt, origin_model_name: model },
        quote: {
          model,
          resolution: request.resolution.toLowerCase(),
          seconds: request.duration ?? videoEditBilledSeconds(entry),
        },
      },
    };
  }
}

/**
 * The family B body, with the OpenAI spellings of /v1/videos resolved: a pixel `size` becomes the
 * model's size nearest its short edge (`720P`/`1080P`) and, unless `metadata.ratio` is given, the
 * model's nearest ratio (so `720x1280` stays portrait).
 */
function fromFlatForm(input: SubmitInput, entry: CatalogEntry): Record<string, unknown> {
  if (input.inputReferenceFile) {
    throw AppError.invalid('beta models take input_reference as a public image URL, not a file', 'input_reference');
  }
  const body = { ...input.body };
  const pixelSize = parsePixelSize(body.size);
  if (pixelSize) {
    body.size = nearestSize(Math.min(pixelSize.width, pixelSize.height), betaResolutionsOf(entry));
    const metadata = body.metadata ?? {};
    // A metadata that is not an object is left for the family B schema to refuse; i2v and video-edit ignore the ratio.
    if (isPlainObject(metadata) && metadata.ratio === undefined) {
      body.metadata = { ...metadata, ratio: nearestAspectRatio(pixelSize.width, pixelSize.height, betaRatiosOf(entry)) };
    }
  }
  const reference = body.input_reference as { image_url?: unknown } | undefined;
  if (reference && typeof reference === 'object' && typeof reference.image_url === 'string') body.input_reference = reference.image_url;
  return body;
}

/** The size (`720P`) whose short edge is nearest `shortEdge`; halfway, the larger. */
function nearestSize(shortEdge: number, sizes: readonly string[]): string {
  const distance = (size: string) => Math.abs(parseInt(size, 10) - shortEdge);
  return sizes.reduce((best, size) =>
    distance(size) < distance(best) || (distance(size) === distance(best) && parseInt(size, 10) > parseInt(best, 10)) ? size : best,
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
