import { AppError } from '../../common/errors/app-error';
import type { SubmitInput } from '../family';
import { assertModelDuration } from '../shared/model-durations';
import { RUNWAY_MODELS, RUNWAY_RATIO_BY_ASPECT, RunwayModelRules } from './runway-models';
import type { RunwayTaskRequest } from './runway-request';
import type { RunwayVideoRequestDto } from './runway-request.dto';
import { assertOneInputReference } from '../shared/input-reference';

/** Metadata keys the gateway writes itself from the request's own fields. */
const GATEWAY_KEYS: Readonly<Record<string, string>> = {
  model: 'model',
  promptText: 'prompt',
  promptImage: 'input_reference',
  ratio: 'size',
  duration: 'duration',
  seed: 'seed',
  negativePrompt: 'negative_prompt',
};

/** A frame the client sent: text (URL or data URI) or the multipart file part, checked and staged by RunwayDrafts. */
export interface RunwayFrameInput {
  position: 'first' | 'last';
  field: 'input_reference' | 'last_frame';
  /** Null: the multipart file part. */
  value: string | null;
}

export interface RunwayRequestPlan {
  request: Omit<RunwayTaskRequest, 'firstFrame' | 'lastFrame'>;
  frames: RunwayFrameInput[];
  /** Priced: `720p` or `1080p`. */
  resolution: string;
  /** Veo models generate audio unless `metadata.audio` is false (priced so). */
  audio: boolean;
}

/**
 * A model's rules over a body its schema already checked: which mode, duration, ratio and extra
 * field it takes. Every refusal is a 400 naming the field the client sent; nothing is charged yet.
 */
export function planRunwayRequest(
  model: string,
  body: RunwayVideoRequestDto,
  input: Pick<SubmitInput, 'inputReferenceFile'>,
): RunwayRequestPlan {
  const rules = RUNWAY_MODELS[model];
  const extra = { ...(body.metadata ?? {}) };
  checkMetadata(model, rules, extra);
  assertOneInputReference(input.inputReferenceFile !== undefined, body.input_reference);
  const image = input.inputReferenceFile !== undefined || body.input_reference !== undefined;
  if (!image && !rules.textToVideo)
    throw AppError.invalid(`${model} is image-to-video only: input_reference (the first frame) is required`, 'input_reference');
  const prompt = body.prompt?.trim() ? body.prompt : undefined;
  if (!image && !prompt) throw AppError.invalid('prompt is required for text-to-video', 'prompt');
  if (body.last_frame !== undefined) {
    if (!rules.veo) throw AppError.invalid(`last_frame is not supported by ${model} (only veo3.1 and veo3.1_fast)`, 'last_frame');
    if (!image) throw AppError.invalid('last_frame needs input_reference (the first frame)', 'last_frame');
  }
  if (body.negative_prompt !== undefined && !rules.veo)
    throw AppError.invalid(`negative_prompt is not supported by ${model} (only veo3.1 and veo3.1_fast)`, 'negative_prompt');

  const duration = body.duration ?? rules.defaultDuration;
  assertModelDuration(duration, rules.durations, model);
  const { ratio, resolution } = ratioOf(model, body, image ? rules.imageRatios : rules.textRatios, image);

  const frames: RunwayFrameInput[] = [];
  if (image) frames.push({ position: 'first', field: 'input_reference', value: body.input_reference ?? null });
  if (body.last_frame !== undefined) frames.push({ position: 'last', field: 'last_frame', value: body.last_frame });
  const request: RunwayRequestPlan['request'] = { mode: image ? 'image' : 'text', ratio, duration, extra };
  if (prompt) request.promptText = prompt;
  if (body.seed !== undefined) request.seed = body.seed;
  if (body.negative_prompt !== undefined) request.negativePrompt = body.negative_prompt;
  return { request, frames, resolution, audio: rules.veo && extra.audio !== false };
}

function checkMetadata(model: string, rules: RunwayModelRules, extra: Record<string, unknown>): void {
  const taken = Object.keys(extra).find((key) => GATEWAY_KEYS[key] !== undefined);
  if (taken) throw AppError.invalid(`metadata.${taken} is set by the gateway: use ${GATEWAY_KEYS[taken]}`, `metadata.${taken}`);
  if (extra.audio === undefined) return;
  if (!rules.veo) throw AppError.invalid(`metadata.audio is not supported by ${model} (only veo3.1 and veo3.1_fast)`, 'metadata.audio');
  if (typeof extra.audio !== 'boolean') throw AppError.invalid('metadata.audio must be a boolean', 'metadata.audio');
}

/** `size` (`1280x720`) or `aspect_ratio` + `resolution` (default 16:9, 720p) -> one of the model's ratios. */
function ratioOf(
  model: string,
  body: RunwayVideoRequestDto,
  allowed: readonly string[],
  image: boolean,
): { ratio: string; resolution: string } {
  const kind = image ? 'image-to-video' : 'text-to-video';
  if (body.size !== undefined) {
    if (body.aspect_ratio !== undefined) throw AppError.invalid('give size or aspect_ratio, not both', 'aspect_ratio');
    const pixels = /^(\d{2,5})x(\d{2,5})$/.exec(body.size.trim());
    const ratio = pixels ? `${pixels[1]}:${pixels[2]}` : '';
    if (!allowed.includes(ratio))
      throw AppError.invalid(`size must be one of ${allowed.map((r) => r.replace(':', 'x')).join(', ')} for ${model} ${kind}`, 'size');
    return { ratio, resolution: Math.min(Number(pixels![1]), Number(pixels![2])) >= 1080 ? '1080p' : '720p' };
  }
  const resolution = (body.resolution ?? '720p').trim().toLowerCase();
  const aspect = (body.aspect_ratio ?? '16:9').trim();
  const byAspect = RUNWAY_RATIO_BY_ASPECT[resolution];
  if (!byAspect) throw AppError.invalid('resolution must be 720p or 1080p', 'resolution');
  const ratio = byAspect[aspect];
  if (ratio && allowed.includes(ratio)) return { ratio, resolution };
  const aspects = (res: string) =>
    Object.keys(RUNWAY_RATIO_BY_ASPECT[res]).filter((key) => allowed.includes(RUNWAY_RATIO_BY_ASPECT[res][key]));
  // The aspect ratio exists at 720p for this model: it is the resolution that does not fit.
  if (resolution !== '720p' && aspects('720p').includes(aspect)) {
    throw AppError.invalid(
      `resolution ${resolution} is not available for ${model} ${kind} at ${aspect}${aspects(resolution).length ? ` (only ${aspects(resolution).join(', ')})` : ''}`,
      'resolution',
    );
  }
  throw AppError.invalid(
    `aspect_ratio must be one of ${aspects(resolution).join(', ')} for ${model} ${kind} at ${resolution}`,
    'aspect_ratio',
  );
}
