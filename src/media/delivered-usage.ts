import type { VideoFacts } from './video-facts';

/** Billed seconds: the duration rounded to the nearest whole second, a half up (Math.round: 5.04 -> 5, 4.5 -> 5). */
export function deliveredSeconds(durationSeconds: number): number {
  return Math.round(durationSeconds);
}

/** The short edge a resolution name stands for: `720p`/`720P` -> 720, `4k` -> 2160, `1280x720` -> 720; null for any other name (`*`). */
export function shortEdgeOf(name: string): number | null {
  if (/^4k$/i.test(name)) return 2160;
  const lines = /^(\d+)p$/i.exec(name);
  if (lines) return Number(lines[1]);
  // A frame size as a name (OpenAI-compatible models price `1280x720`): its short edge.
  const frame = /^(\d+)x(\d+)$/i.exec(name);
  return frame ? Math.min(Number(frame[1]), Number(frame[2])) : null;
}

/**
 * The resolution a frame is billed as: of the catalog's names (a model's `resolutions`, spelt as it
 * spells them), the one of the frame's short edge; between two names the lower one; below them all
 * the lowest. Null when none of the names is a size.
 */
export function deliveredResolution(width: number, height: number, names: readonly string[]): string | null {
  const edge = Math.min(width, height);
  const sized = names
    .map((name) => ({ name, edge: shortEdgeOf(name) }))
    .filter((entry): entry is { name: string; edge: number } => entry.edge !== null)
    .sort((a, b) => a.edge - b.edge);
  if (sized.length === 0) return null;
  return sized.filter((entry) => entry.edge <= edge).pop()?.name ?? sized[0].name;
}

/** What settlement bills of a delivered video: its seconds, its resolution among `names`, its audio. */
export function deliveredUsage(
  facts: VideoFacts,
  names: readonly string[],
): { seconds: number; resolution: string | null; audio: boolean } {
  return {
    seconds: deliveredSeconds(facts.durationSeconds),
    resolution: deliveredResolution(facts.width, facts.height, names),
    audio: facts.hasAudio,
  };
}
