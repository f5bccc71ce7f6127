import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { MODEL_STATUSES } from '../../catalog/catalog-entry';
import { IsOptionalNotNull } from '../../common/http/validation';

export class AdminModelQueryDto {
  @ApiPropertyOptional({ description: 'only models with a route on this platform' })
  @IsOptionalNotNull()
  @IsString()
  platform?: string;

  @ApiPropertyOptional({ enum: MODEL_STATUSES })
  @IsOptionalNotNull()
  @IsIn(MODEL_STATUSES)
  status?: string;
}
