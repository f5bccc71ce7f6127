/**
 * Where a hosted platform's answer holds the video URL (`options.output` of a route): a dotted path
 * with list indexes, `video.url` (fal's usual place), `output` (Replicate's), `videos[0].url`.
 * What the path reaches may be the URL itself, a list (its first item) or a file object (its `url`).
 */
export const OUTPUT_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(?:\[\d{1,3}\])*(?:\.[A-Za-z_][A-Za-z0-9_]{0,63}(?:\[\d{1,3}\])*){0,7}$/;

/** Why `value` is no output path, or null. */
export function outputPathProblem(value: unknown): string | null {
  return typeof value === 'string' && OUTPUT_PATH.test(value)
    ? null
    : 'must be a dotted path to the video URL in the answer, e.g. video.url, output, videos[0].url';
}

/** The video URL at `path` in `body`, when there is a string there (or in the list's first item, or the file object's `url`). */
export function videoUrlAt(body: unknown, path: string): string | undefined {
  if (!OUTPUT_PATH.test(path)) return undefined;
  let value: unknown = body;
  for (const part of path.split('.')) {
    const [name, ...indexes] = part.split('[');
    value = isRecord(value) && Object.hasOwn(value, name) ? value[name] : undefined;
    for (const index of indexes) value = Array.isArray(value) ? value[Number(index.slice(0, -1))] : undefined;
  }
  if (Array.isArray(value)) value = value[0];
  if (isRecord(value)) value = value.url;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
