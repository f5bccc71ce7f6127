// How the console shows a catalog entry's parts (GET /api/admin/models): its modes, lengths, prices and lifecycle.
import { t } from './i18n.js';
import { num, quota } from './format.js';

export const MODES = ['text-to-video', 'image-to-video', 'first-last-frame', 'reference-to-video', 'video-edit', 'video-extend'];
export const AUDIO = ['none', 'optional', 'always'];
export const MODEL_STATUSES = ['active', 'deprecated', 'retired'];

export const modeLabel = (mode) => t(`models.mode.${mode}`);

/** `[5, 10]` -> "5, 10 s"; `{min: 3, max: 15}` (or a list of every second from 3 to 15) -> "3–15 s". */
export function durationsText(durations) {
  if (!Array.isArray(durations)) return t('models.range', { min: num(durations.min), max: num(durations.max) });
  const sorted = [...durations].sort((a, b) => a - b);
  const contiguous = sorted.length > 2 && sorted.every((s, i) => i === 0 || s === sorted[i - 1] + 1);
  if (contiguous) return t('models.range', { min: num(sorted[0]), max: num(sorted[sorted.length - 1]) });
  return t('models.list', { list: sorted.map((s) => num(s)).join(', ') });
}

/** "1080p" -> 1080; "4k" -> 2160; "*" (any) last. */
function resolutionRank(resolution) {
  if (resolution === '*') return Number.MAX_SAFE_INTEGER;
  const k = /^(\d+(?:\.\d+)?)k$/i.exec(resolution);
  if (k) return Number(k[1]) * 540;
  const n = /^(\d+)/.exec(resolution);
  return n ? Number(n[1]) : Number.MAX_SAFE_INTEGER - 1;
}

/** An entry's prices from the lowest resolution up (per clip ones by their length). */
export const sortedPrices = (prices) =>
  [...prices].sort(
    (a, b) =>
      resolutionRank(a.resolution) - resolutionRank(b.resolution) ||
      a.resolution.localeCompare(b.resolution) ||
      (a.duration ?? 0) - (b.duration ?? 0),
  );

/** "720p: 100 / s", "1080p: 2,000 / 5 s clip", "Any: 50 / clip"; `amount`: another figure than the list price (a group's). */
export function priceText(price, amount = price.price) {
  const resolution = price.resolution === '*' ? t('models.anyResolution') : price.resolution;
  const per =
    price.unit === 'second'
      ? t('models.perSecond', { price: quota(amount) })
      : price.duration
        ? t('models.perClipOf', { price: quota(amount), n: num(price.duration) })
        : t('models.perClip', { price: quota(amount) });
  return `${resolution}: ${per}`;
}

/** A unix time as a datetime-local input's value (local time, minutes), and back. */
export function toLocalInput(unix) {
  if (!unix) return '';
  const d = new Date(unix * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export const fromLocalInput = (value) => (value ? Math.floor(new Date(value).getTime() / 1000) : null);
