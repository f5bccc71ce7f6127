import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, buildMessage, IsArray, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import { BUDGET_PERIODS, type BudgetPeriod } from '../../auth/api-key.entity';
import { isAllowlistEntry } from '../../auth/ip-allowlist';

const MAX_QUOTA = Number.MAX_SAFE_INTEGER;
/** Fits the 32-bit column on both databases with room to spare. */
const MAX_RPM = 1_000_000_000;
/** Unix seconds up to the year 9999. */
const MAX_UNIX_SECONDS = 253_402_300_799;

const IsAllowlistEntry = () =>
  ValidateBy(
    {
      name: 'isAllowlistEntry',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isAllowlistEntry(value),
        defaultMessage: buildMessage((each) => `${each}$property must be IPv4 or IPv6 addresses or CIDRs (e.g. 203.0.113.0/24)`, {
          each: true,
        }),
      },
    },
    { each: true },
  );

/**
 * An API key's own limits, the same for an admin and for a customer's own keys, on create and on
 * update. `null` lifts a limit; a missing field leaves it as it is (on update).
 */
export class KeyLimitsDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 1_000_000,
    description: 'quota units this key may spend in all (null: only the balance limits it); past it a 402 `key_quota_exceeded`',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_QUOTA)
  quota_limit?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 10_000,
    description: 'quota units per `budget_period` (null: no budget); past it a 402 `key_budget_exceeded`',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_QUOTA)
  budget?: number | null;

  @ApiPropertyOptional({ enum: BUDGET_PERIODS, example: '1d', description: 'the budget’s period (default `1d`); a new period starts now' })
  @IsOptional()
  @IsIn(BUDGET_PERIODS)
  budget_period?: BudgetPeriod | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 1798761600,
    description: 'unix seconds; from then on a 401 `key_expired` (null: never)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNIX_SECONDS)
  expires_at?: number | null;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    example: ['203.0.113.0/24', '2001:db8::/32'],
    description:
      'IPv4/IPv6 addresses and CIDRs the key may be used from, as seen behind TRUSTED_PROXIES (null or empty: anywhere); else a 403 `ip_not_allowed`',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsAllowlistEntry()
  allowed_ips?: string[] | null;

  @ApiPropertyOptional({
    example: 60,
    default: 0,
    description: 'requests per minute for this key, besides the account’s (0: only the account’s); past it a 429 `key_rate_limited`',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_RPM)
  rpm?: number;
}
