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
