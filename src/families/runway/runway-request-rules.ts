import { CatalogEntry, ModelMode, upstreamModelOf } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { CatalogModel, SubmitInput } from '../family';
import { assertPromptWithinEntry, durationWithinEntry } from '../shared/entry-rules';
import { RUNWAY_RATIO_BY_ASPECT } from './runway-models';
import type { RunwayRouteOptions } from './runway-route-options';
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
  videoUri: 'a remix (POST /v1/videos/{id}/remix, or metadata.source_task_id)',
};

/** What the refusals of the Veo dialect's fields say. */
const VEO_ONLY = '(only veo3.1 and veo3.1_fast)';

/**
 * What a Runway model takes, read from its catalog entry and its route: lengths and their default,
 * modes, the pixel ratios (`ratio`) of its resolutions and aspect ratios for each kind of task, and
 * whether it speaks Runway's Veo dialect (route option `veo`; absent, an upstream id beginning with
 * `veo`). A new Runway model is its entry alone.
 */
export interface RunwayModel {
  entry: CatalogEntry;
  veo: boolean;
  /** `<w>:<h>` pixels, for text-to-video (empty: it takes none) and image-to-video. */
  textRatios: readonly string[];
  imageRatios: readonly string[];
  /** The defaults of `resolution` and `aspect_ratio`, for each kind of task. */
  defaults: { resolution: string; textAspect: string; imageAspect: string };
}

export function runwayModelOf({ entry, route }: CatalogModel): RunwayModel {
  const options = (route.options ?? {}) as RunwayRouteOptions;
  const resolutions = entry.resolutions.length > 0 ? entry.resolutions.map((resolution) => resolution.toLowerCase()) : ['720p'];
  const aspects = entry.aspectRatios.length > 0 ? entry.aspectRatios : Object.keys(RUNWAY_RATIO_BY_ASPECT['720p']);
  const textAspects = options.text_aspect_ratios ? aspects.filter((aspect) => options.text_aspect_ratios!.includes(aspect)) : aspects;
  const ratiosOf = (allowed: readonly string[]) =>
    Object.entries(RUNWAY_RATIO_BY_ASPECT)
      .filter(([resolution]) => resolutions.includes(resolution))
      .flatMap(([, byAspect]) =>
        Object.entries(byAspect)
          .filter(([aspect]) => allowed.includes(aspect))
          .map(([, ratio]) => ratio),
      );
  const upstream = upstreamModelOf(route, 'text-to-video') ?? upstreamModelOf(route, 'image-to-video') ?? '';
  return {
    entry,
    veo: options.veo ?? /^veo/i.test(upstream),
    textRatios: entry.modes.includes('text-to-video') ? ratiosOf(textAspects) : [],
    imageRatios: ratiosOf(aspects),
    defaults: { resolution: resolutions[0], textAspect: textAspects[0] ?? aspects[0], imageAspect: aspects[0] },
  };
}

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
  mode: ModelMode;
}

/**
 * A model's rules over a body its schema already checked, read from its catalog entry: which mode,
 * duration, ratio and extra field it takes. Every refusal is a 400 naming the field the client
 * sent; nothing is charged yet.
 */
export function planRunwayRequest(
  name: string,
  model: RunwayModel,
  body: RunwayVideoRequestDto,
  input: Pick<SubmitInput, 'inputReferenceFile'>,
): RunwayRequestPlan {
  const { entry } = model;
  if (entry.modes.every((mode) => mode === 'video-edit'))
    throw AppError.invalid(
      `${name} edits a video: name a completed task of yours in metadata.source_task_id (or POST /v1/videos/{id}/remix)`,
      'metadata.source_task_id',
    );
  const extra = { ...(body.metadata ?? {}) };
  checkMetadata(name, model, extra);
  assertOneInputReference(input.inputReferenceFile !== undefined, body.input_reference);
  const image = input.inputReferenceFile !== undefined || body.input_reference !== undefined;
  if (!image && !entry.modes.includes('text-to-video'))
    throw AppError.invalid(`${name} is image-to-video only: input_reference (the first frame) is required`, 'input_reference');
  assertPromptWithinEntry(body.prompt, entry, name);
  const prompt = body.prompt?.trim() ? body.prompt : undefined;
  if (!image && !prompt) throw AppError.invalid('prompt is required for text-to-video', 'prompt');
  if (body.last_frame !== undefined) {
    if (!model.veo) throw AppError.invalid(`last_frame is not supported by ${name} ${VEO_ONLY}`, 'last_frame');
    if (!entry.modes.includes('first-last-frame')) throw AppError.invalid(`last_frame is not taken by ${name}`, 'last_frame');
    if (!image) throw AppError.invalid('last_frame needs input_reference (the first frame)', 'last_frame');
  }
  if (image && body.last_frame === undefined && !entry.modes.includes('image-to-video'))
    throw AppError.invalid(`${name} does not take image-to-video requests`, 'input_reference');
  if (body.negative_prompt !== undefined && !model.veo)
    throw AppError.invalid(`negative_prompt is not supported by ${name} ${VEO_ONLY}`, 'negative_prompt');

  const duration = durationWithinEntry(body.duration, entry, name);
  const { ratio, resolution } = ratioOf(name, model, body, image);

  const frames: RunwayFrameInput[] = [];
  if (image) frames.push({ position: 'first', field: 'input_reference', value: body.input_reference ?? null });
  if (body.last_frame !== undefined) frames.push({ position: 'last', field: 'last_frame', value: body.last_frame });
  // A Veo model whose entry generates no audio is sent `audio: false` (and billed so).
  if (model.veo && entry.audio === 'none') extra.audio = false;
  const request: RunwayRequestPlan['request'] = { mode: image ? 'image' : 'text', ratio, duration, extra };
  if (prompt) request.promptText = prompt;
  if (body.seed !== undefined) request.seed = body.seed;
  if (body.negative_prompt !== undefined) request.negativePrompt = body.negative_prompt;
  return {
    request,
    frames,
    resolution,
    audio: model.veo && extra.audio !== false,
    mode: body.last_frame !== undefined ? 'first-last-frame' : image ? 'image-to-video' : 'text-to-video',
  };
}

export function checkMetadata(name: string, model: RunwayModel, extra: Record<string, unknown>): void {
  const taken = Object.keys(extra).find((key) => GATEWAY_KEYS[key] !== undefined);
  if (taken) throw AppError.invalid(`metadata.${taken} is set by the gateway: use ${GATEWAY_KEYS[taken]}`, `metadata.${taken}`);
  if (extra.audio === undefined) return;
  if (!model.veo) throw AppError.invalid(`metadata.audio is not supported by ${name} ${VEO_ONLY}`, 'metadata.audio');
  if (model.entry.audio === 'none')
    throw AppError.invalid(`metadata.audio is not taken by ${name} (it generates no audio)`, 'metadata.audio');
  if (typeof extra.audio !== 'boolean') throw AppError.invalid('metadata.audio must be a boolean', 'metadata.audio');
  if (model.entry.audio === 'always' && !extra.audio)
    throw AppError.invalid(`metadata.audio cannot be false: ${name} always generates audio`, 'metadata.audio');
}

/** `size` (`1280x720`) or `aspect_ratio` + `resolution` (default the entry's first, 16:9 and 720p) -> one of the model's ratios. */
function ratioOf(name: string, model: RunwayModel, body: RunwayVideoRequestDto, image: boolean): { ratio: string; resolution: string } {
  const kind = image ? 'image-to-video' : 'text-to-video';
  const allowed = image ? model.imageRatios : model.textRatios;
  if (body.size !== undefined) {
    if (body.aspect_ratio !== undefined) throw AppError.invalid('give size or aspect_ratio, not both', 'aspect_ratio');
    const pixels = /^(\d{2,5})x(\d{2,5})$/.exec(body.size.trim());
    const ratio = pixels ? `${pixels[1]}:${pixels[2]}` : '';
    if (!allowed.includes(ratio))
      throw AppError.invalid(`size must be one of ${allowed.map((r) => r.replace(':', 'x')).join(', ')} for ${name} ${kind}`, 'size');
    return { ratio, resolution: Math.min(Number(pixels![1]), Number(pixels![2])) >= 1080 ? '1080p' : '720p' };
  }
  const resolution = (body.resolution ?? model.defaults.resolution).trim().toLowerCase();
  const aspect = (body.aspect_ratio ?? (image ? model.defaults.imageAspect : model.defaults.textAspect)).trim();
  const byAspect = RUNWAY_RATIO_BY_ASPECT[resolution];
  if (!byAspect) throw AppError.invalid('resolution must be 720p or 1080p', 'resolution');
  const ratio = byAspect[aspect];
  if (ratio && allowed.includes(ratio)) return { ratio, resolution };
  const aspects = (res: string) =>
    Object.keys(RUNWAY_RATIO_BY_ASPECT[res]).filter((key) => allowed.includes(RUNWAY_RATIO_BY_ASPECT[res][key]));
  // The aspect ratio exists at 720p for this model: it is the resolution that does not fit.
  if (resolution !== '720p' && aspects('720p').includes(aspect)) {
    throw AppError.invalid(
      `resolution ${resolution} is not available for ${name} ${kind} at ${aspect}${aspects(resolution).length ? ` (only ${aspects(resolution).join(', ')})` : ''}`,
      'resolution',
    );
  }
  throw AppError.invalid(
    `aspect_ratio must be one of ${aspects(resolution).join(', ')} for ${name} ${kind} at ${resolution}`,
    'aspect_ratio',
  );
}
