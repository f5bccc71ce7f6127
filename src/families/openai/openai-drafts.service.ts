import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { sniffImageType } from '../../common/urls/image-type';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { validBody } from '../../common/http/validation';
import type { FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { assertOneInputReference } from '../shared/input-reference';
import { assertModelDuration, ModelDurations } from '../shared/model-durations';
import { OpenAiInputFiles } from './openai-input-files.service';
import { OpenAiReferenceCheck } from './openai-reference-check.service';
import type { OpenAiTaskRequest } from './openai-protocol';
import { OPENAI_MAX_SECONDS, OpenAiVideoRequestDto } from './openai-request.dto';

/** OpenAI's default length, billed and sent when a submit names none (so the upstream makes what was billed). */
export const OPENAI_DEFAULT_SECONDS = 4;
const FIELDS = new Set(['model', 'prompt', 'duration', 'size', 'input_reference']);
/** OpenAI's own Sora models make these lengths only (docs/upstream-protocols.md); other servers take 1 to 120 s. */
const SORA_SECONDS = [4, 8, 12];

function secondsOf(model: string): ModelDurations {
  return /^sora-/i.test(model) ? SORA_SECONDS : { from: 1, to: OPENAI_MAX_SECONDS };
}

/**
 * Turns a body for an OpenAI-compatible model into a task draft: its schema (OpenAiVideoRequestDto,
 * 400s naming the field), then the rules it cannot say. Priced per the price table at `size` (else `*`).
 */
@Injectable()
export class OpenAiDrafts implements FamilyDrafts<OpenAiTaskRequest> {
  constructor(
    private readonly files: OpenAiInputFiles,
    private readonly referenceCheck: OpenAiReferenceCheck,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prepare(model: string, input: SubmitInput): Promise<FamilyDraft<OpenAiTaskRequest>> {
    // The Videos API takes these fields only: anything else would be dropped upstream unseen.
    const unknown = Object.keys(input.body).find((key) => !FIELDS.has(key));
    if (unknown !== undefined)
      throw AppError.invalid(`${unknown} is not a field of ${model} (it takes model, prompt, seconds, size, input_reference)`, unknown);
    const { prompt, duration, size, input_reference: reference } = await validBody(OpenAiVideoRequestDto, input.body);
    const seconds = duration ?? OPENAI_DEFAULT_SECONDS;
    assertModelDuration(seconds, secondsOf(model), model);
    const request: OpenAiTaskRequest = { prompt, seconds, ...(size !== undefined ? { size } : {}) };
    if (reference !== undefined) {
      assertOneInputReference(input.inputReferenceFile !== undefined, reference);
      // The upstream fetches it on the gateway's behalf: the media URL rules of every family apply.
      const [url, field] =
        typeof reference === 'string' ? [reference, 'input_reference'] : [reference.image_url, 'input_reference.image_url'];
      await assertPublicHttpUrl(url, field, mediaSourcePolicy(this.config));
      // An HTML page or a 404 is refused here, before the charge, not by the provider after it.
      await this.referenceCheck.check(url, field);
      request.inputReference = reference;
    }
    // A file part is a first-frame image too: anything else is refused before the charge.
    if (input.inputReferenceFile && sniffImageType(input.inputReferenceFile.buffer) === null)
      throw AppError.invalid('input_reference must be a JPEG, PNG or WebP image', 'input_reference');
    const staged = input.inputReferenceFile ? this.files.stage(input.inputReferenceFile) : undefined;
    if (staged) request.inputFile = staged.ref;
    const withReference = request.inputReference !== undefined || staged !== undefined;
    return {
      draft: {
        platform: 'openai',
        model,
        action: withReference ? 'imageGenerate' : 'textGenerate',
        request,
        properties: { input: prompt, origin_model_name: model },
        quote: { model, resolution: size !== undefined ? size.toLowerCase() : '*', seconds },
      },
      release: staged?.release,
    };
  }
}
