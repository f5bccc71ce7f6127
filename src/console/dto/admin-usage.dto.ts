import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OPERATOR_USAGE_GROUPS, type UsageGroupBy } from '../../tasks/usage-report';
import { USAGE_KEY_SCHEMA, UsageRangeQueryDto } from '../../videos/dto/usage.dto';

/** `GET /api/admin/usage`: every account's ended tasks, grouped. */
export class OperatorUsageReportQueryDto extends UsageRangeQueryDto {
  @ApiPropertyOptional({ enum: OPERATOR_USAGE_GROUPS, default: 'day' })
  @IsOptional()
  @IsIn(OPERATOR_USAGE_GROUPS)
  group_by?: UsageGroupBy;
}

export class OperatorUsageRowDto {
  @ApiProperty(USAGE_KEY_SCHEMA) key: string | number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "group_by `channel` or `key`: the channel's or the key's name" })
  name?: string | null;
  @ApiProperty({ description: 'tasks that ended (completed or failed)', example: 12 }) tasks: number;
  @ApiProperty({ description: 'seconds of video delivered (0 for tasks that ended before it was recorded)', example: 60 }) seconds: number;
  @ApiProperty({ description: 'quota the customers paid in the end (after refunds)', example: 600000 }) quota: number;
  @ApiProperty({ description: 'USD charged at submit (6 decimals)', example: 70 }) usd_charged: number;
  @ApiProperty({ description: 'USD refunded since: failures, and what was delivered below what was asked', example: 10 })
  usd_refunded: number;
  @ApiProperty({ description: 'what the providers cost, USD, of the tasks whose cost is known (see tasks_without_cost)', example: 35.5 })
  provider_cost_usd: number;
  @ApiProperty({ description: 'usd_charged - usd_refunded - provider_cost_usd', example: 24.5 }) margin_usd: number;
  @ApiProperty({ description: 'completed tasks whose provider cost is unknown (not in provider_cost_usd)', example: 0 })
  tasks_without_cost: number;
}

export class OperatorUsageReportDto {
  @ApiProperty({ description: 'Unix seconds: the start of the range', example: 1748736000 }) from: number;
  @ApiProperty({ description: 'Unix seconds: the end of the range (exclusive)', example: 1751328000 }) to: number;
  @ApiProperty({ enum: OPERATOR_USAGE_GROUPS }) group_by: UsageGroupBy;
  @ApiProperty({ type: [OperatorUsageRowDto] }) data: OperatorUsageRowDto[];
}
