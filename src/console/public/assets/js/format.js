// Number, date and money formatting shared by the pages.

const numberFormat = new Intl.NumberFormat(undefined);

export const quota = (value) => (value === null || value === undefined ? '—' : numberFormat.format(value));

/** Signed amount with an explicit plus sign. */
export const signed = (value) => (value > 0 ? `+${quota(value)}` : quota(value));

export function dateTime(unixSeconds) {
  if (!unixSeconds) return '—';
  return new Date(unixSeconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function percent(ratio) {
  return `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.001 ? 2 : 1)}%`;
}

/** `YYYY-MM-DD` from a date input to Unix seconds at the start (or end) of that local day. */
export function dayToUnix(value, endOfDay = false) {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  const date = endOfDay ? new Date(y, m - 1, d, 23, 59, 59) : new Date(y, m - 1, d, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

export const flatStatusLabel = {
  queued: 'Queued',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
};

export const logTypeLabel = { consume: 'Consume', refund: 'Refund', topup: 'Top-up', adjust: 'Adjustment', hold: 'Hold', release: 'Hold released' };
/** What a customer's ledger shows: holds of submits the provider refused (and their releases) never appear there. */
export const CUSTOMER_LOG_TYPES = ['consume', 'refund', 'topup', 'adjust'];
