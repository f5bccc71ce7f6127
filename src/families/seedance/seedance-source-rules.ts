import type { CatalogEntry } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import type { SourceVideo } from '../family';
import { assertPromptWithinEntry, clientMetadata, durationWithinEntry } from '../shared/entry-rules';
import { assertSourceSeconds, entryLengths, refuseWithSourceVideo, sourceResolution } from '../shared/source-video-rules';
import type { SourceSettled } from '../shared/source-video-draft';
import { SEEDANCE_ADAPTIVE, SEEDANCE_EXTEND_SOURCE_SECONDS, SEEDANCE_GATEWAY_KEYS } from './seedance-models';
import type { SeedanceTaskRequest } from './seedance-protocol';
import type { SeedanceVideoRequestDto } from './seedance-request.dto';
import { settleSeedanceAudio } from './seedance-task-rules';

/**
 * Seedance 2.0's edit and extension of a stored video: Ark has no field saying which (2.0 reads the
 * task from the prompt, BytePlus's prompt guide: "edit Video 1", "extend Video 1"), so the source goes
 * as the one `reference_video` and the prompt is led by the task's words (seedanceSourcePrompt). An
 * edit follows its source (4 to 15 s, Ark's lengths), an extension adds `duration` (the entry's, 4 to
 * 15, default 5) to a source of 2 to 15 s (Ark's reference video). Neither takes a frame, reference
 * images, a size, a ratio (sent `adaptive`) or a resolution (the source's); audio as on a submit.
 * Priced by the new seconds at the source's resolution; each refusal a 400 naming the field, before any charge.
 */
export function settleSeedanceSourceRequest(
  name: string,
  entry: CatalogEntry,
  body: SeedanceVideoRequestDto,
  hasFirstFrame: boolean,
  source: SourceVideo,
): SourceSettled<SeedanceTaskRequest> {
  const extend = source.mode === 'video-extend';
  const what = `a Seedance ${extend ? 'extension' : 'edit'}`;
  if (hasFirstFrame) throw AppError.invalid(`input_reference is not taken by ${what}: the video is the source`, 'input_reference');
  refuseWithSourceVideo(body, ['last_frame', 'reference_images', 'negative_prompt', 'size', 'aspect_ratio', 'resolution'], what);
  if (!body.prompt?.trim()) throw AppError.invalid('prompt is required', 'prompt');
  assertPromptWithinEntry(body.prompt, entry, name);
  const extra = clientMetadata(body.metadata, SEEDANCE_GATEWAY_KEYS);
  let seconds: number;
  if (extend) {
    assertSourceSeconds(source, SEEDANCE_EXTEND_SOURCE_SECONDS, what);
    seconds = durationWithinEntry(body.duration, entry, name);
  } else {
    refuseWithSourceVideo(body, ['duration'], what);
    assertSourceSeconds(source, entryLengths(entry), what);
    seconds = source.seconds;
  }
  const resolution = sourceResolution(source, entry);
  const generateAudio = settleSeedanceAudio(name, entry, body.audio);
  const request: SeedanceTaskRequest = {
    prompt: seedanceSourcePrompt(source.mode, body.prompt),
    duration: seconds,
    resolution,
    ratio: SEEDANCE_ADAPTIVE,
    generateAudio,
    extra,
    ...(body.seed !== undefined ? { seed: body.seed } : {}),
    video: { url: source.url },
  };
  return { request, seconds, resolution, audio: generateAudio };
}

/**
 * The text of an edit or an extension: Ark 2.0 has no field naming the task (2.5's
 * `omni_reference_task_type` is not 2.0's); it reads it from the prompt, which names the source as
 * "Video 1" (BytePlus's prompt guide: "Strictly edit Video 1 ...", "Extend Video 1 ..."). The
 * client's prompt follows the gateway's lead-in (UNCONFIRMED wording: docs/families.md, Seedance).
 */
export function seedanceSourcePrompt(mode: 'video-edit' | 'video-extend', prompt: string): string {
  return `${mode === 'video-extend' ? 'Extend Video 1' : 'Edit Video 1'}: ${prompt}`;
}
