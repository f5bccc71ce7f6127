// Numbers, money, dates and durations in the chosen language.
import { langStore, t } from './i18n.js';
import { sessionStore } from './session.js';

const cache = new Map();
function formatter(kind, options) {
  const key = `${langStore.get()}|${kind}|${JSON.stringify(options)}`;
  if (!cache.has(key))
    cache.set(key, kind === 'number' ? new Intl.NumberFormat(langStore.get(), options) : new Intl.DateTimeFormat(langStore.get(), options));
  return cache.get(key);
}

const missing = (value) => value === null || value === undefined || Number.isNaN(value);

export const num = (value, options) => (missing(value) ? '—' : formatter('number', options ?? {}).format(value));
/** Quota units (what the ledger counts). */
export const quota = (value) => num(value);
export const signed = (value) => (missing(value) ? '—' : value > 0 ? `+${num(value)}` : num(value));
export const percent = (ratio) =>
  missing(ratio) ? '—' : formatter('number', { style: 'percent', maximumFractionDigits: 1 }).format(ratio);

/** Quota as money in the gateway's currency (from the session), or null when the gateway does not say. */
export function money(value) {
  const currency = sessionStore.get()?.currency;
  if (missing(value) || !currency?.quota_per_unit) return null;
  const amount = value / currency.quota_per_unit;
  return formatter('number', {
    style: 'currency',
    currency: currency.code,
    maximumFractionDigits: Math.abs(amount) < 1 && amount !== 0 ? 4 : 2,
  }).format(amount);
}

/** "12,500 (≈ $0.03)": quota, with its money value when known. */
export function quotaMoney(value) {
  const m = money(value);
  return m ? `${quota(value)} (≈ ${m})` : quota(value);
}

export const dateTime = (unix) =>
  unix ? formatter('date', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(unix * 1000)) : '—';
/** "Nov 22, 19:47": short enough for a table cell (the year only when it is not this one). */
export function compactDateTime(unix) {
  if (!unix) return '—';
  const date = new Date(unix * 1000);
  const sameYear = date.getFullYear() === new Date().getFullYear();
  return formatter('date', {
    year: sameYear ? undefined : 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(date);
}
export const dateTimeSeconds = (unix) =>
  unix ? formatter('date', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(unix * 1000)) : '—';
export const shortDate = (date) => formatter('date', { month: 'short', day: 'numeric' }).format(date);
/** 'YYYY-MM-DD' as a local calendar day. */
export const dayDate = (day) => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/** Seconds as "1 min 05 s" / "42 s". */
export function duration(seconds) {
  if (missing(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('time.seconds', { s });
  if (s < 3600) return t('time.minutes', { m: Math.floor(s / 60), s: String(s % 60).padStart(2, '0') });
  return t('time.hours', { h: Math.floor(s / 3600), m: String(Math.floor((s % 3600) / 60)).padStart(2, '0') });
}

/** Relative age: "3 min ago". */
export function ago(unix) {
  if (!unix) return '—';
  const diff = unix - Date.now() / 1000;
  const rtf = new Intl.RelativeTimeFormat(langStore.get(), { numeric: 'auto' });
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(Math.round(diff), 'second');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  return rtf.format(Math.round(diff / 86400), 'day');
}

/** `YYYY-MM-DD` from a date input to Unix seconds at the start (or end) of that local day. */
export function dayToUnix(value, endOfDay = false) {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  const date = endOfDay ? new Date(y, m - 1, d, 23, 59, 59) : new Date(y, m - 1, d, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

/** A long id shortened for tables: task_abcd…wxyz (the full id stays in a title and the copy button). */
export function shortId(id, head = 10, tail = 4) {
  if (!id || id.length <= head + tail + 1) return id ?? '';
  return `${id.slice(0, head)}…${id.slice(-tail)}`;
}
