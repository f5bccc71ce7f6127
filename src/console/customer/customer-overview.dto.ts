import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CurrencyDto } from '../currency.view';

const RANGES = ['7d', '30d'];

export class CustomerOverviewQueryDto {
  @ApiPropertyOptional({ enum: RANGES, default: '30d' })
  @IsOptional()
  @IsIn(RANGES)
  range: '7d' | '30d' = '30d';
}

export class ModelSpendDto {
  @ApiProperty({ example: 'alpha/v6' }) model: string;
  @ApiProperty({ description: 'net quota charged (charges minus refunds)' }) quota: number;
  @ApiProperty({ description: 'tasks charged' }) tasks: number;
}

export class CustomerOverviewDto {
  @ApiProperty({ enum: RANGES }) range: string;
  @ApiProperty({ type: [String], example: ['2026-11-21', '2026-11-22'], description: 'UTC days, oldest first, today last' }) days: string[];
  @ApiProperty({ type: [Number], description: 'net quota spent per day (charges minus refunds)' }) spend_by_day: number[];
  @ApiProperty({ type: [Number], description: 'quota refunded per day' }) refund_by_day: number[];
  @ApiProperty({
    type: [Number],
    nullable: true,
    description: "the balance after the day's last ledger row (carried over days without one); null for days before the account existed",
  })
  balance_by_day: (number | null)[];
  @ApiProperty({ description: 'the balance now' }) balance: number;
  @ApiProperty({ type: [ModelSpendDto], description: 'most spent first' }) spend_by_model: ModelSpendDto[];
  @ApiProperty({ type: CurrencyDto }) currency: CurrencyDto;
}
