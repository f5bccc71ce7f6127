import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import {
  CUSTOMER_USAGE_GROUPS,
  USAGE_BOUND_MESSAGE,
  USAGE_BOUND_PATTERN,
  USAGE_FORMATS,
  USAGE_MAX_DAYS,
  type UsageFormat,
  type UsageGroupBy,
} from '../../tasks/usage-report';

const FROM_DOC =
  'Unix seconds, or a date `YYYY-MM-DD` (its UTC midnight); tasks that ended at or after it. Default: the start of the UTC day 29 days before `to`';
const TO_DOC = `Unix seconds (exclusive), or a date \`YYYY-MM-DD\` (that UTC day included). Default: now. At most ${USAGE_MAX_DAYS} days after \`from\``;
const FORMAT_DOC = '`csv`: the same rows as a CSV attachment (a header row; money with 6 decimals)';

/** The range and format both usage reports take. */
export class UsageRangeQueryDto {
  @ApiPropertyOptional({ description: FROM_DOC, example: '2025-06-01' })
  @IsOptional()
  @IsString()
  @Matches(USAGE_BOUND_PATTERN, { message: USAGE_BOUND_MESSAGE })
  from?: string;

  @ApiPropertyOptional({ description: TO_DOC, example: '2025-06-30' })
  @IsOptional()
  @IsString()
  @Matches(USAGE_BOUND_PATTERN, { message: USAGE_BOUND_MESSAGE })
  to?: string;

  @ApiPropertyOptional({ enum: USAGE_FORMATS, default: 'json', description: FORMAT_DOC })
  @IsOptional()
  @IsIn(USAGE_FORMATS)
  format?: UsageFormat;
}

/** `GET /v1/usage`: the caller's own ended tasks, grouped. */
export class UsageReportQueryDto extends UsageRangeQueryDto {
  @ApiPropertyOptional({
    enum: CUSTOMER_USAGE_GROUPS,
    default: 'day',
    description: 'a UTC day of when tasks ended, the model, or the API key',
  })
  @IsOptional()
  @IsIn(CUSTOMER_USAGE_GROUPS)
  group_by?: 'day' | 'model' | 'key';
}

export const USAGE_KEY_DOC =
  'the group: a day as `YYYY-MM-DD` (UTC, of when the tasks ended), a model id, a platform, or an id (channel, user, API key; null: none)';
export const USAGE_KEY_SCHEMA = {
  oneOf: [{ type: 'string' }, { type: 'integer' }],
  nullable: true,
  description: USAGE_KEY_DOC,
  example: '2025-06-01',
};

export class UsageRowDto {
  @ApiProperty(USAGE_KEY_SCHEMA) key: string | number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "group_by `key`: the key's name" }) name?: string | null;
  @ApiProperty({ description: 'tasks that ended (completed or failed)', example: 12 }) tasks: number;
  @ApiProperty({ description: 'seconds of video delivered (0 for tasks that ended before it was recorded)', example: 60 }) seconds: number;
  @ApiProperty({ description: 'quota paid in the end (after refunds)', example: 600000 }) quota: number;
  @ApiProperty({ description: 'the same in US dollars, rounded to 6 decimals', example: 60 }) usd: number;
}

export class UsageReportDto {
  @ApiProperty({ description: 'Unix seconds: the start of the range', example: 1748736000 }) from: number;
  @ApiProperty({ description: 'Unix seconds: the end of the range (exclusive)', example: 1751328000 }) to: number;
  @ApiProperty({ enum: CUSTOMER_USAGE_GROUPS }) group_by: UsageGroupBy;
  @ApiProperty({ type: [UsageRowDto] }) data: UsageRowDto[];
}
