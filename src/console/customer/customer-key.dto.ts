import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Length } from 'class-validator';
import { ColumnLength } from '../../common/validation';

export class CustomerCreateKeyDto {
  @ApiProperty({ example: 'production' })
  @IsString()
  @ColumnLength(1, 128)
  name: string;

  @ApiPropertyOptional({ example: ['alpha/v6'], description: 'model allowlist; absent or empty means every model' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  models?: string[];
}
