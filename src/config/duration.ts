/** Milliseconds per unit of a duration such as `90d`, `12h`, `15m`, `30s`. */
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration in ms from `<integer><s|m|h|d>` or `0`; null when the text is neither. */
export function parseDuration(text: string): number | null {
  if (text === '0') return 0;
  const match = /^(\d{1,9})([smhd])$/.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2]];
  return Number.isSafeInteger(ms) ? ms : null;
}
