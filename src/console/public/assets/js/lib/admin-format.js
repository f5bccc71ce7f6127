// Formatting the admin pages need beyond lib/format.js: bytes, rates with one decimal, money in a
// currency the response names (the dashboard and price list carry their own).
import { langStore } from './i18n.js';

const missing = (value) => value === null || value === undefined || Number.isNaN(value);
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'];

/** 1234567 -> "1.2 MB" (decimal units, as disks are sold); under a kilobyte "0 B", "512 B" (Intl's short byte is "byte" in English). */
export function bytes(value) {
  if (missing(value)) return '—';
  if (Math.abs(value) < 1000) return `${new Intl.NumberFormat(langStore.get(), { maximumFractionDigits: 0 }).format(value)} B`;
  let n = value;
  let unit = 0;
  while (Math.abs(n) >= 1000 && unit < UNITS.length - 1) {
    n /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(langStore.get(), {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(n);
}

/** A ratio as a percentage with one decimal always shown ("0.0%", "12.5%"): rates compare at a glance. */
export const rate = (ratio) =>
  missing(ratio)
    ? '—'
    : new Intl.NumberFormat(langStore.get(), { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ratio);

/** An amount of money in `code` ("$0.045"): amounts under one keep up to four decimals so a per-second price is not shown as $0.00. */
export function amount(value, code) {
  if (missing(value) || !code) return null;
  const small = Math.abs(value) < 1 && value !== 0;
  return new Intl.NumberFormat(langStore.get(), {
    style: 'currency',
    currency: code,
    minimumFractionDigits: 2,
    maximumFractionDigits: small ? 4 : 2,
  }).format(value);
}

/** Quota as money at the rate `currency` ({ code, quota_per_unit }) names, or null when unknown. */
export const moneyIn = (quotaValue, currency) =>
  missing(quotaValue) || !currency?.quota_per_unit ? null : amount(quotaValue / currency.quota_per_unit, currency.code);
