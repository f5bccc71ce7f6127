import { ApiProperty } from '@nestjs/swagger';
import { BUDGET_PERIODS } from '../../auth/api-key.entity';

/** A key as the admin API and the console list it: its limits and its use against them. */
export class ApiKeyViewDto {
  @ApiProperty() id: number;
  @ApiProperty() user_id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'sk-3kT9...' }) key_hint: string;
  @ApiProperty({ type: [String], nullable: true, description: 'model allowlist; null means every model' }) models: string[] | null;
  @ApiProperty({
    enum: ['active', 'expired', 'revoked'],
    description: 'expired: active but past expires_at (every call is a 401 key_expired)',
  })
  status: string;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds' }) revoked_at: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'quota units the key may spend in all; null: only the balance limits it' })
  quota_limit: number | null;
  @ApiProperty({ description: 'quota units the key has spent, refunds taken back' }) used_quota: number;
  @ApiProperty({ type: Number, nullable: true, description: 'quota units per budget_period; null: no budget' }) budget: number | null;
  @ApiProperty({ enum: BUDGET_PERIODS, nullable: true }) budget_period: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'spent in the current period' }) budget_used: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Unix seconds: when the current period ends and budget_used starts again at 0',
  })
  budget_resets_at: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds; null: never' }) expires_at: number | null;
  @ApiProperty({ type: [String], nullable: true, description: 'IPs and CIDRs the key may be used from; null: anywhere' })
  allowed_ips: string[] | null;
  @ApiProperty({ description: 'requests per minute for this key (0: only the account’s limit)' }) rpm: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds, to the minute' }) last_used_at: number | null;
}

/** A key just issued: its view and, only in this answer, the key itself. */
export class IssuedApiKeyDto extends ApiKeyViewDto {
  @ApiProperty({ example: 'sk-3kT9fQ2mXb7LcV1pZ8wR4yNdA6sE0uHj', description: 'shown only in this answer' }) key: string;
}
