import { type CatalogEntry, secondsOf } from '../../catalog/catalog-entry';
import { AppError } from '../../common/errors/app-error';
import { deliveredResolution } from '../../media/delivered-usage';
import type { SourceVideo } from '../family';

/**
 * What families that make a video from a source video (SubmitInput.sourceVideo) check alike, before
 * any charge: the fields such a request cannot take, the provider's limits on the source's length
 * (a 400 naming the field that named the source), and the resolution it is priced at.
 */

/** The first of `fields` the body sent: a 400 saying the output takes it from the source video. */
export function refuseWithSourceVideo(body: object, fields: readonly string[], what: string): void {
  const sent = fields.find((field) => (body as Record<string, unknown>)[field] !== undefined);
  if (sent) throw AppError.invalid(`${sent} is not taken by ${what}: the output follows the source video`, sent);
}

/** The source's length within the provider's limits (whole seconds, both ends included). */
export function assertSourceSeconds(source: SourceVideo, limits: { min: number; max: number }, what: string): void {
  if (source.seconds >= limits.min && source.seconds <= limits.max) return;
  throw AppError.invalid(
    `the source video (${source.taskId}) is ${source.seconds} s: ${what} takes ${limits.min} to ${limits.max} s`,
    source.field,
  );
}

/**
 * The resolution a video made from the source is priced at: the entry's name for the source's frame,
 * else for the resolution the source was settled at, else (unknown) the entry's highest, priced high and settled on what is delivered; `*` when
 * the entry names none.
 */
export function sourceResolution(source: SourceVideo, entry: Pick<CatalogEntry, 'resolutions'>): string {
  if (entry.resolutions.length === 0) return '*';
  const frame = source.size ? /^(\d+)x(\d+)$/.exec(source.size) : null;
  if (frame) return deliveredResolution(Number(frame[1]), Number(frame[2]), entry.resolutions) ?? entry.resolutions.at(-1)!;
  const named = entry.resolutions.find((name) => name.toLowerCase() === source.resolution?.toLowerCase());
  return named ?? entry.resolutions.at(-1)!;
}

/** The shortest and longest of the entry's lengths: the sources a model whose output follows its source takes. */
export function entryLengths(entry: Pick<CatalogEntry, 'durations'>): { min: number; max: number } {
  const lengths = secondsOf(entry.durations);
  return { min: Math.min(...lengths), max: Math.max(...lengths) };
}
