import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { MAX_CODES_PER_BATCH } from '../../billing/redemption/redemption-codes.service';

/** The latest date a JavaScript Date and every database print (9999-12-31). */
const MAX_UNIX_SECONDS = 253_402_300_799;

export class CreateRedemptionCodesDto {
  @ApiProperty({ example: 100000, description: 'quota units each code adds to the balance of the customer who redeems it' })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  quota: number;

  @ApiProperty({ example: 10, description: `how many codes to make (1 to ${MAX_CODES_PER_BATCH})` })
  @IsInt()
  @Min(1)
  @Max(MAX_CODES_PER_BATCH)
  count: number;

  @ApiPropertyOptional({ nullable: true, example: 1798761600, description: 'unix seconds; after it the code is refused (null: never)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNIX_SECONDS)
  expires_at?: number | null;
}

export class RedemptionCodeDto {
  @ApiProperty({ example: 7 }) id: number;
  @ApiProperty({ example: 'MN56', description: 'the last characters of the code' }) code_hint: string;
  @ApiProperty({ example: 100000 }) quota: number;
  @ApiProperty({ example: 7, description: 'codes made together share it' }) batch_id: number;
  @ApiProperty({ enum: ['unused', 'redeemed', 'expired'] }) state: 'unused' | 'redeemed' | 'expired';
  @ApiProperty({ example: 1764633600 }) created_at: number;
  @ApiProperty({ nullable: true, example: 1798761600, type: Number }) expires_at: number | null;
  @ApiProperty({ nullable: true, example: 2, type: Number, description: 'the customer who redeemed it' }) redeemed_by: number | null;
  @ApiProperty({ nullable: true, example: 1764637200, type: Number }) redeemed_at: number | null;
}

/** A code just made: the code itself, shown only in this answer. */
export class IssuedRedemptionCodeDto extends RedemptionCodeDto {
  @ApiProperty({ example: '7KQ2-9XWD-M3RT-B8CF-MN56', description: 'shown once: only its hash is stored' }) code: string;
}

export class IssuedRedemptionCodesDto {
  @ApiProperty({ type: [IssuedRedemptionCodeDto] }) data: IssuedRedemptionCodeDto[];
}

export class RedemptionCodeListDto {
  @ApiProperty({ type: [RedemptionCodeDto] }) data: RedemptionCodeDto[];
  @ApiProperty({ example: 10 }) total: number;
}

export class RedeemDto {
  @ApiProperty({ example: '7KQ2-9XWD-M3RT-B8CF-MN56', description: 'as printed; case, spaces and dashes do not matter' })
  @IsString()
  @Length(1, 64)
  code: string;
}

export class RedeemedDto {
  @ApiProperty({ example: 100000, description: 'quota units the code added' }) quota_added: number;
  @ApiProperty({ example: 250000, description: 'the balance afterwards' }) quota: number;
}
