import { AppError } from '../../common/errors/app-error';

/** A model's lengths in seconds: a list, or every whole second of a range. */
export type ModelDurations = readonly number[] | { readonly from: number; readonly to: number };

/**
 * The one rule of every family for a length its model does not make, and its one message:
 * `duration must be 5 or 10 seconds for kling-v2-6`, naming the model as the client did (the
 * submit pipeline names `seconds` instead when that is what the client sent).
 */
export function assertModelDuration(seconds: number, durations: ModelDurations, model: string): void {
  const range = rangeOf(durations);
  const allowed = range ? seconds >= range.from && seconds <= range.to : (durations as readonly number[]).includes(seconds);
  if (!allowed) throw AppError.invalid(`duration must be ${durationsText(durations)} for ${model}`, 'duration');
}

/** A range, or a list of more than two seconds without a gap, reads as a range. */
function rangeOf(durations: ModelDurations): { from: number; to: number } | null {
  if (!Array.isArray(durations)) return durations as { from: number; to: number };
  const list = durations as readonly number[];
  const [from, to] = [list[0], list[list.length - 1]];
  return list.length > 2 && to - from + 1 === list.length ? { from, to } : null;
}

function durationsText(durations: ModelDurations): string {
  const range = rangeOf(durations);
  if (range) return `a whole number of seconds from ${range.from} to ${range.to}`;
  const list = durations as readonly number[];
  return `${list.length > 1 ? `${list.slice(0, -1).join(', ')} or ` : ''}${list[list.length - 1]} seconds`;
}
