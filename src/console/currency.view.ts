import { ApiProperty } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config';

/** The money the console shows quota as (QUOTA_PER_UNIT, CURRENCY). */
export class CurrencyDto {
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' }) code: string;
  @ApiProperty({ example: 10000, description: 'quota units worth one unit of the currency' }) quota_per_unit: number;
}

export const toCurrencyView = (config: AppConfig): CurrencyDto => ({ code: config.currency, quota_per_unit: config.quotaPerUnit });

/** Quota as money at the configured rate (a number, rounded to 6 decimals so it prints cleanly). */
export const toMoney = (quota: number, config: AppConfig): number => Math.round((quota / config.quotaPerUnit) * 1e6) / 1e6;
