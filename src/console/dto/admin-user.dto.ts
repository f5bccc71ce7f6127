import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, MinLength } from 'class-validator';
import { ColumnLength, IsOptionalNotNull } from '../../common/http/validation';
import { KeyLimitsDto } from './key-limits.dto';

const MAX_QUOTA = Number.MAX_SAFE_INTEGER;
/** Fits the 32-bit column on both databases with room to spare. */
const MAX_RPM = 1_000_000_000;

/** The account rate limit, the same on create and update. */
const RpmField = () =>
  applyDecorators(
    ApiPropertyOptional({
      example: 600,
      default: 0,
      description: 'requests per minute on /v1/*, over every instance (0 = unlimited); past it a 429 with Retry-After, nothing charged',
    }),
    IsOptionalNotNull(),
    IsInt(),
    Min(0),
    Max(MAX_RPM),
  );

export class CreateUserDto {
  @ApiProperty({ example: 'acme' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_.@-]+$/, { message: 'username may contain letters, digits and _ . @ - only' })
  username: string;

  @ApiPropertyOptional({ example: 'default', default: 'default' })
  @IsOptionalNotNull()
  @IsString()
  @ColumnLength(1, 64)
  group?: string;

  @ApiPropertyOptional({ example: 100000, default: 0, description: 'opening balance in quota units (written as a top-up)' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_QUOTA)
  quota?: number;

  @ApiPropertyOptional({ description: 'console password for the customer (at least 8 characters)' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(8)
  password?: string;

  @ApiPropertyOptional({ enum: ['user', 'admin'], default: 'user', description: 'admin: signs in to the admin console with the password' })
  @IsOptionalNotNull()
  @IsIn(['user', 'admin'])
  role?: 'user' | 'admin';

  @RpmField()
  rpm?: number;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ example: 'vip' })
  @IsOptionalNotNull()
  @IsString()
  @ColumnLength(1, 64)
  group?: string;

  @ApiPropertyOptional({ enum: ['active', 'disabled'] })
  @IsOptionalNotNull()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  verification_enabled?: boolean;

  @ApiPropertyOptional({ description: 'new console password (at least 8 characters)' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(8)
  password?: string;

  @RpmField()
  rpm?: number;
}

export class TopUpDto {
  @ApiProperty({ example: 50000, description: 'quota units to add (positive integer)' })
  @IsInt()
  @Min(1)
  @Max(MAX_QUOTA)
  quota: number;
}

export class AdjustDto {
  @ApiProperty({ example: -500, description: 'signed quota change' })
  @IsInt()
  @Min(-MAX_QUOTA)
  @Max(MAX_QUOTA)
  quota: number;

  @ApiProperty({ example: 'goodwill credit' })
  @IsString()
  @Length(1, 500)
  reason: string;
}

export class CreateKeyDto extends KeyLimitsDto {
  @ApiProperty({ example: 'production' })
  @IsString()
  @ColumnLength(1, 128)
  name: string;

  @ApiPropertyOptional({ example: ['alpha/v6'], description: 'model allowlist; absent or empty means every model' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  models?: string[];
}

/** A key's name, models and limits; what is missing stays as it is. */
export class UpdateKeyDto extends KeyLimitsDto {
  @ApiPropertyOptional({ example: 'production' })
  @IsOptionalNotNull()
  @IsString()
  @ColumnLength(1, 128)
  name?: string;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    example: ['alpha/v6'],
    description: 'model allowlist; null or empty means every model',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  models?: string[] | null;
}
