import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import type { FamilyDraft, FamilyDrafts, SubmitInput } from '../family';
import { OpenAiInputFiles } from './openai-input-files.service';
import type { OpenAiTaskRequest } from './openai-protocol';

/** OpenAI's default length, billed and sent when a submit names none (so the upstream makes what was billed). */
export const OPENAI_DEFAULT_SECONDS = 4;
const MAX_SECONDS = 120;
const MAX_PROMPT = 32_000;
const FIELDS = new Set(['model', 'prompt', 'duration', 'size', 'input_reference']);
const PIXEL_SIZE = /^\d{2,5}x\d{2,5}$/;

/**
 * The request schema of an OpenAI-compatible model: the Videos API's own fields only, checked by
 * type (400 naming the field); the model's constraints are the upstream's to enforce (its 400 is
 * the client's, with nothing charged). Priced per the price table at `size` (else `*`).
 */
@Injectable()
export class OpenAiDrafts implements FamilyDrafts {
  constructor(private readonly files: OpenAiInputFiles) {}

  async prepare(model: string, input: SubmitInput): Promise<FamilyDraft> {
    const body = input.body;
    const unknown = Object.keys(body).find((key) => !FIELDS.has(key));
    if (unknown !== undefined) throw AppError.invalid(`${unknown} is not a field of ${model} (it takes model, prompt, seconds, size, input_reference)`, unknown);
    const { prompt, duration, size } = body;
    if (typeof prompt !== 'string' || prompt.trim() === '') throw AppError.invalid('prompt is required', 'prompt');
    if (prompt.length > MAX_PROMPT) throw AppError.invalid(`prompt must be at most ${MAX_PROMPT} characters`, 'prompt');
    const seconds = duration ?? OPENAI_DEFAULT_SECONDS;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) {
      throw AppError.invalid(`${input.durationField} must be a whole number of seconds from 1 to ${MAX_SECONDS}`, input.durationField);
    }
    if (size !== undefined && (typeof size !== 'string' || !PIXEL_SIZE.test(size))) throw AppError.invalid('size must be <width>x<height> in pixels, e.g. 1280x720', 'size');
    const request: OpenAiTaskRequest = { prompt, seconds, ...(size !== undefined ? { size: size as string } : {}) };
    if (body.input_reference !== undefined) {
      if (input.inputReferenceFile) throw AppError.invalid('input_reference is given twice (a file part and a field)', 'input_reference');
      request.inputReference = jsonReference(body.input_reference);
    }
    const staged = input.inputReferenceFile ? this.files.stage(input.inputReferenceFile) : undefined;
    if (staged) request.inputFile = staged.ref;
    const withReference = request.inputReference !== undefined || staged !== undefined;
    return {
      draft: {
        platform: 'openai',
        model,
        action: withReference ? 'imageGenerate' : 'textGenerate',
        request: { ...request },
        properties: { input: prompt, origin_model_name: model },
        quote: { model, resolution: size !== undefined ? (size as string).toLowerCase() : '*', seconds },
      },
      release: staged?.release,
    };
  }
}

/** A JSON `input_reference`: an http(s) URL, or `{image_url}` with one; the upstream fetches it. */
function jsonReference(value: unknown): OpenAiTaskRequest['inputReference'] {
  const url = typeof value === 'string' ? value : value && typeof value === 'object' && !Array.isArray(value) ? (value as { image_url?: unknown }).image_url : undefined;
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(url) || (typeof value === 'object' && Object.keys(value as object).length !== 1)) {
    throw AppError.invalid('input_reference must be a file part, an http(s) URL or {"image_url": "<http(s) URL>"}', 'input_reference');
  }
  return typeof value === 'string' ? url : { image_url: url };
}
