import type { AppConfig } from '../config/app-config';

/** Quota units per US dollar when the operator's currency is not USD (1 credit = 0.01 USD = 100 units). */
export const QUOTA_PER_USD_OTHER_CURRENCY = 10_000;

/** Quota units per US dollar: `QUOTA_PER_UNIT` when the currency is USD, else the fixed credit rate. */
export const quotaPerUsd = (config: Pick<AppConfig, 'currency' | 'quotaPerUnit'>): number =>
  config.currency === 'USD' ? config.quotaPerUnit : QUOTA_PER_USD_OTHER_CURRENCY;

/** Quota as whole millionths of a dollar, exactly (BigInt), rounded half up; `quota` is a whole number of units (any size). */
export function microUsdOfQuota(quota: bigint, perUsd: number): bigint {
  const per = BigInt(perUsd);
  const scaled = quota * 1_000_000n;
  const sign = scaled < 0n ? -1n : 1n;
  return (sign * (2n * sign * scaled + per)) / (2n * per);
}

/** Millionths of a dollar as a JSON number of dollars (6 decimals at most). */
export const usdOfMicro = (micro: bigint): number => Number(micro) / 1e6;

/** Millionths of a dollar as exact decimal text with 6 decimals (`-1.500000`), for CSV. */
export function usdTextOfMicro(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`;
}
