import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { sniffImageType } from '../../common/urls/image-type';
import { mediaSourcePolicy } from '../../common/urls/media-source-policy';
import { assertPublicHttpUrl } from '../../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { validBody } from '../../common/http/validation';
import type { CatalogModel, FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { durationWithinEntry } from '../shared/entry-rules';
import { assertOneInputReference } from '../shared/input-reference';
import { videoDraftFields } from '../shared/video-draft-fields';
import { OpenAiInputFiles } from './openai-input-files.service';
import { OpenAiReferenceCheck } from './openai-reference-check.service';
import type { OpenAiTaskRequest } from './openai-protocol';
import { OPENAI_MAX_PROMPT, OpenAiVideoRequestDto } from './openai-request.dto';

const FIELDS = new Set(['model', 'prompt', 'duration', 'size', 'input_reference']);

/**
 * Turns a body for an OpenAI-compatible model into a task draft: its schema (OpenAiVideoRequestDto,
 * 400s naming the field), then the model's catalog entry: its prompt length, its lengths (the default
 * billed and sent when a submit names none, so the upstream makes what was billed), its sizes
 * (`resolutions`: any size when it lists none, else one of them, the first sent when none is asked)
 * and its modes (image-to-video with an `input_reference`). Priced per the price table at `size` (else `*`).
 */
@Injectable()
export class OpenAiDrafts implements FamilyDrafts<OpenAiTaskRequest> {
  constructor(
    private readonly files: OpenAiInputFiles,
    private readonly referenceCheck: OpenAiReferenceCheck,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prepare(model: string, input: SubmitInput, _caller: unknown, { entry }: CatalogModel): Promise<FamilyDraft<OpenAiTaskRequest>> {
    // The Videos API takes these fields only: anything else would be dropped upstream unseen.
    const unknown = Object.keys(input.body).find((key) => !FIELDS.has(key));
    if (unknown !== undefined)
      throw AppError.invalid(`${unknown} is not a field of ${model} (it takes model, prompt, seconds, size, input_reference)`, unknown);
    const { prompt, duration, size: asked, input_reference: reference } = await validBody(OpenAiVideoRequestDto, input.body);
    const maxPrompt = entry.promptMaxLength ?? OPENAI_MAX_PROMPT;
    if (prompt.length > maxPrompt) throw AppError.invalid(`prompt must be at most ${maxPrompt} characters`, 'prompt');
    const seconds = durationWithinEntry(duration, entry, model);
    const sizes = entry.resolutions.map((resolution) => resolution.toLowerCase());
    if (asked !== undefined && sizes.length > 0 && !sizes.includes(asked.toLowerCase()))
      throw AppError.invalid(`size must be one of ${entry.resolutions.join(', ')} for ${model}`, 'size');
    const size = asked ?? entry.resolutions[0];
    const withReference = reference !== undefined || input.inputReferenceFile !== undefined;
    // Before the reference is fetched: a mode the model does not make costs no request.
    if (withReference && !entry.modes.includes('image-to-video'))
      throw AppError.invalid(`${model} does not take image-to-video requests`, 'input_reference');
    if (!withReference && !entry.modes.includes('text-to-video'))
      throw AppError.invalid(`${model} is not a text-to-video model: input_reference is required`, 'input_reference');
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
    return {
      draft: {
        platform: 'openai',
        ...videoDraftFields(model, prompt, withReference),
        mode: withReference ? 'image-to-video' : 'text-to-video',
        request,
        quote: { model, resolution: size !== undefined ? size.toLowerCase() : '*', seconds },
      },
      release: staged?.release,
    };
  }
}
