/** Pixel sizes (`<width>x<height>`, what OpenAI clients send) as the families read them. */

/** `<width>x<height>` as numbers, or null for the named sizes. */
export function parsePixelSize(size: unknown): { width: number; height: number } | null {
  const match = typeof size === 'string' ? /^(\d+)x(\d+)$/i.exec(size.trim()) : null;
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

/** The listed aspect ratio nearest to `width:height` (`720x1280` -> `9:16`). */
export function nearestAspectRatio(width: number, height: number, allowed: string[]): string {
  const wanted = Math.log(width / height);
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number);
    return Math.abs(Math.log(w / h) - wanted);
  };
  return allowed.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}

/**
 * `<width>x<height>` of a video whose short side is `shortSide` and whose shape is `ratio`
 * (`720`, `16:9` -> `1280x720`), rounded to even pixels; undefined for `adaptive` or unreadable input.
 */
export function pixelSizeOf(shortSide: number, ratio: unknown): string | undefined {
  const match = /^(\d+):(\d+)$/.exec(String(ratio ?? ''));
  if (!Number.isFinite(shortSide) || shortSide <= 0 || !match) return undefined;
  const [w, h] = [Number(match[1]), Number(match[2])];
  if (!w || !h) return undefined;
  const even = (n: number) => Math.round(n / 2) * 2;
  return w >= h ? `${even((shortSide * w) / h)}x${shortSide}` : `${shortSide}x${even((shortSide * h) / w)}`;
}
