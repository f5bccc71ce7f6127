import { microUsdOfQuota, usdOfMicro, usdTextOfMicro } from '../billing/quota-usd';
import { AppError } from '../common/errors/app-error';

/** What the operator's report groups ended tasks by. */
export const OPERATOR_USAGE_GROUPS = ['day', 'model', 'channel', 'platform', 'user', 'key'] as const;
/** What a customer's report groups their own ended tasks by. */
export const CUSTOMER_USAGE_GROUPS = ['day', 'model', 'key'] as const;
export type UsageGroupBy = (typeof OPERATOR_USAGE_GROUPS)[number];
export const USAGE_FORMATS = ['json', 'csv'] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];

/** `from` and `to`: Unix seconds, or a UTC date. */
export const USAGE_BOUND_PATTERN = /^(\d{1,12}|\d{4}-\d{2}-\d{2})$/;
export const USAGE_BOUND_MESSAGE = '$property must be Unix seconds or a date YYYY-MM-DD';
/** The longest range a report covers: a leap year. */
export const USAGE_MAX_DAYS = 366;
/** The range when none is asked: the last 30 UTC days, today included. */
export const USAGE_DEFAULT_DAYS = 30;
export const DAY_MS = 86_400_000;

/** An asked range, in ms: tasks that ended at or after `fromMs` and before `toMs`. */
export interface UsageRange {
  fromMs: number;
  toMs: number;
}

/** One group's sums, exact (BigInt), as the repository reads them: its key (the day's start in ms for `day`). */
export interface UsageTotals {
  key: string | number | null;
  tasks: bigint;
  seconds: bigint;
  /** What the customers paid in the end (`final_quota`; older tasks: their charge if they succeeded, else 0). */
  finalQuota: bigint;
  /** What was charged at submit (`quota`). */
  chargedQuota: bigint;
  /** The known provider costs, in millionths of a dollar. */
  costMicroUsd: bigint;
  /** Succeeded tasks whose provider cost is unknown (their cost is not in `costMicroUsd`). */
  tasksWithoutCost: bigint;
}

export interface OperatorUsageRow {
  key: string | number | null;
  /** The channel's or the key's name (group_by `channel`, `key`); null when it has none any more. */
  name?: string | null;
  tasks: number;
  seconds: number;
  quota: number;
  usd_charged: number;
  usd_refunded: number;
  provider_cost_usd: number;
  margin_usd: number;
  tasks_without_cost: number;
}

export interface CustomerUsageRow {
  key: string | number | null;
  /** The key's name (group_by `key`). */
  name?: string | null;
  tasks: number;
  seconds: number;
  quota: number;
  usd: number;
}

/** A report: its range (Unix seconds, `to` exclusive), its grouping and its rows, in key order. */
export interface UsageReport<Row> {
  from: number;
  to: number;
  group_by: UsageGroupBy;
  data: Row[];
}

/**
 * The asked range in ms. `from` is Unix seconds or a date (its UTC midnight); `to` is Unix seconds
 * (exclusive) or a date (included whole: up to the next UTC midnight). Missing, `to` is now and `from`
 * the start of the UTC day 29 days before `to`'s. 400 naming the field: an unreadable date, `to` not after
 * `from`, a range over USAGE_MAX_DAYS.
 */
export function usageRange(query: { from?: string; to?: string }, nowMs: number): UsageRange {
  const toMs = query.to !== undefined ? boundMs(query.to, 'to') : nowMs;
  const fromMs =
    query.from !== undefined ? boundMs(query.from, 'from') : toMs - 1 - ((toMs - 1) % DAY_MS) - (USAGE_DEFAULT_DAYS - 1) * DAY_MS;
  // The field at fault is the one the client sent (`to` when both were).
  const blamed = query.to !== undefined ? 'to' : 'from';
  if (toMs <= fromMs) throw AppError.invalid(`${blamed} must be after from (to is exclusive; a date as to includes that day)`, blamed);
  if (toMs - fromMs > USAGE_MAX_DAYS * DAY_MS)
    throw AppError.invalid(`the range from from to to must be at most ${USAGE_MAX_DAYS} days`, blamed);
  return { fromMs, toMs };
}

function boundMs(value: string, field: 'from' | 'to'): number {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = date ? Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])) : NaN;
  // Date.UTC rolls 2025-02-30 over to March: a date that does not come back as written is not a date.
  if (!date || new Date(ms).toISOString().slice(0, 10) !== value)
    throw AppError.invalid(`${field} must be Unix seconds or a date YYYY-MM-DD`, field);
  return field === 'to' ? ms + DAY_MS : ms;
}

/** A group's key as the report shows it: a day as `YYYY-MM-DD`, ids as numbers, the rest as text. */
export function keyOf(groupBy: UsageGroupBy, raw: string | number | null): string | number | null {
  if (raw === null) return null;
  switch (groupBy) {
    case 'day':
      return new Date(Number(raw)).toISOString().slice(0, 10);
    case 'channel':
    case 'user':
    case 'key':
      return Number(raw);
    default:
      return String(raw);
  }
}

/**
 * Money of one group, in whole millionths of a dollar: what was charged and what was paid in the end
 * each rounded half up, the refund their difference, the margin what was paid less the known costs;
 * so a row adds up exactly, and the operator's charged less refunded is the customer's own `usd`.
 */
export function operatorRow(totals: UsageTotals, perUsd: number, groupBy: UsageGroupBy, name?: string | null): OperatorUsageRow {
  const charged = microUsdOfQuota(totals.chargedQuota, perUsd);
  const paid = microUsdOfQuota(totals.finalQuota, perUsd);
  return {
    key: keyOf(groupBy, totals.key),
    ...(name !== undefined ? { name } : {}),
    tasks: Number(totals.tasks),
    seconds: Number(totals.seconds),
    quota: Number(totals.finalQuota),
    usd_charged: usdOfMicro(charged),
    usd_refunded: usdOfMicro(charged - paid),
    provider_cost_usd: usdOfMicro(totals.costMicroUsd),
    margin_usd: usdOfMicro(paid - totals.costMicroUsd),
    tasks_without_cost: Number(totals.tasksWithoutCost),
  };
}

export function customerRow(totals: UsageTotals, perUsd: number, groupBy: UsageGroupBy, name?: string | null): CustomerUsageRow {
  return {
    key: keyOf(groupBy, totals.key),
    ...(name !== undefined ? { name } : {}),
    tasks: Number(totals.tasks),
    seconds: Number(totals.seconds),
    quota: Number(totals.finalQuota),
    usd: usdOfMicro(microUsdOfQuota(totals.finalQuota, perUsd)),
  };
}

/** Rows in key order, whatever the database's collation: days and names by code unit, ids by number, none last. */
export function byKey<T extends { key: string | number | null }>(a: T, b: T): number {
  if (a.key === b.key) return 0;
  if (a.key === null) return 1;
  if (b.key === null) return -1;
  if (typeof a.key === 'number' && typeof b.key === 'number') return a.key - b.key;
  return String(a.key) < String(b.key) ? -1 : 1;
}

const MONEY_COLUMNS = new Set(['usd_charged', 'usd_refunded', 'provider_cost_usd', 'margin_usd', 'usd']);

/**
 * A report as CSV (RFC 4180: a header row, CRLF, fields quoted when they hold a comma, a quote or a
 * line break). Money with exactly 6 decimals; a text field a spreadsheet would take for a formula
 * (starting with = + - @, a tab or a carriage return: a key's name is the customer's) gets a leading `'`.
 */
export function usageCsv<Row extends { key: string | number | null; name?: string | null }>(
  rows: Row[],
  columns: readonly (keyof Row & string)[],
): string {
  const lines = [columns.join(',')];
  for (const row of rows) {
    lines.push(
      columns
        .map((column) => {
          const value = row[column] as unknown;
          if (value === null || value === undefined) return '';
          if (typeof value === 'number') return MONEY_COLUMNS.has(column) ? usdTextOfMicro(BigInt(Math.round(value * 1e6))) : String(value);
          return csvText(String(value));
        })
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV's columns: a name beside the key where the grouping has one. */
export const operatorCsvColumns = (groupBy: UsageGroupBy): (keyof OperatorUsageRow & string)[] => [
  'key',
  ...(hasNames(groupBy) ? (['name'] as const) : []),
  'tasks',
  'seconds',
  'quota',
  'usd_charged',
  'usd_refunded',
  'provider_cost_usd',
  'margin_usd',
  'tasks_without_cost',
];

export const customerCsvColumns = (groupBy: UsageGroupBy): (keyof CustomerUsageRow & string)[] => [
  'key',
  ...(hasNames(groupBy) ? (['name'] as const) : []),
  'tasks',
  'seconds',
  'quota',
  'usd',
];

/** Groupings whose keys have a name: a channel's, a key's. */
export const hasNames = (groupBy: UsageGroupBy): boolean => groupBy === 'channel' || groupBy === 'key';

/** The CSV's file name: `usage-<group>-<first day>-<last day>.csv` (UTC days; `to` is exclusive). */
export function usageFileName(report: UsageReport<unknown>): string {
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  return `usage-${report.group_by}-${day(report.from)}-${day(report.to - 1)}.csv`;
}
