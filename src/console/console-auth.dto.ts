import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { IsOptionalNotNull } from '../common/http/validation';
import { CurrencyDto } from './currency.view';

/** Sign in with the admin token, or with a username and password (customer or admin user); `null` is no string. */
export class ConsoleSignInDto {
  @ApiPropertyOptional({ description: 'the ADMIN_TOKEN (instead of username and password)' })
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 512)
  admin_token?: string;

  @ApiPropertyOptional({ example: 'acme' })
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 64)
  username?: string;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 256)
  password?: string;
}

export class ConsoleSignUpDto {
  @ApiProperty({ example: 'acme' })
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_.@-]+$/, { message: 'username may contain letters, digits and _ . @ - only' })
  username: string;

  @ApiProperty({ description: 'at least 8 characters' })
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password: string;
}

export class ConsoleUserDto {
  @ApiProperty() id: number;
  @ApiProperty() username: string;
  @ApiProperty() group: string;
  @ApiProperty({ enum: ['user', 'admin'] }) role: string;
  @ApiProperty({ description: 'spendable balance in quota units' }) quota: number;
  @ApiProperty() used_quota: number;
  @ApiProperty() verification_enabled: boolean;
}

export class ConsoleSessionDto {
  @ApiProperty({ enum: ['admin', 'user'] }) role: 'admin' | 'user';
  @ApiProperty({ enum: ['admin_token', 'user'] }) kind: string;
  @ApiProperty({ type: ConsoleUserDto, nullable: true }) user: ConsoleUserDto | null;
  @ApiProperty({ description: 'send as X-CSRF-Token on every state-changing console call' }) csrf_token: string;
  @ApiProperty({ description: 'Unix seconds' }) expires_at: number;
  @ApiProperty({ type: CurrencyDto, description: 'the money the console shows quota as' }) currency: CurrencyDto;
}
