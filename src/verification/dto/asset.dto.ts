import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ColumnLength, ToleratesUnknownFields } from '../../common/http/validation';

/** Every `%` starts a percent-escape of two hex digits (RFC 3986); `/%zz` is no URL the provider can fetch. */
const WELL_ESCAPED = /^[^%]*(?:%[0-9A-Fa-f]{2}[^%]*)*$/;

@ToleratesUnknownFields()
export class CreateAssetDto {
  @ApiProperty({
    example: 'https://cdn.example.com/portraits/jane.jpg',
    description: 'public http(s) URL of a portrait of the verified person (one face)',
  })
  @IsString()
  @MaxLength(2048)
  @Matches(WELL_ESCAPED, { message: 'url has a malformed percent-escape: % must be followed by two hexadecimal digits' })
  url: string;

  @ApiPropertyOptional({ example: 'jane-front' })
  @IsOptional()
  @IsString()
  @ColumnLength(1, 128)
  name?: string;
}

/** The console's upload: a portrait URL as on the API, or (multipart) a `file` part instead. */
export class ConsoleCreateAssetDto {
  @ApiPropertyOptional({
    example: 'https://cdn.example.com/portraits/jane.jpg',
    description: 'public http(s) URL of a portrait; leave out when sending `file`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(WELL_ESCAPED, { message: 'url has a malformed percent-escape: % must be followed by two hexadecimal digits' })
  url?: string;

  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'multipart only: a JPEG, PNG or WebP portrait of at most 10 MB' })
  // A file part never reaches the body; a text field of that name is refused.
  @IsEmpty({ message: 'file must be a file part of a multipart form' })
  file?: unknown;

  @ApiPropertyOptional({ example: 'jane-front' })
  @IsOptional()
  @IsString()
  @ColumnLength(1, 128)
  name?: string;
}

export class AssetErrorDto {
  @ApiProperty({ example: 'FaceMismatch' }) code: string;
  @ApiProperty({ example: 'the face does not match the verified person' }) message: string;
}

export class AssetDto {
  @ApiProperty({ example: 'asset-20260101-abc', description: 'use in video requests as asset://<asset_id>' }) asset_id: string;
  @ApiProperty({ example: 'group-20260101-abc' }) group_id: string;
  @ApiProperty({ example: 'jane-front' }) name: string;
  @ApiProperty({ enum: ['processing', 'active', 'failed'] }) status: string;
  @ApiProperty({ type: AssetErrorDto, nullable: true, description: "the provider's error when failed" }) error: AssetErrorDto | null;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class AssetListDto {
  @ApiProperty({ type: [AssetDto], description: 'newest first' }) data: AssetDto[];
}

export class GroupDto {
  @ApiProperty({ example: 'group-20260101-abc' }) group_id: string;
  @ApiProperty({ example: 'vs_3kT9fQ2mXb7LcV1pZ8wR4yNd' }) session_id: string;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class GroupListDto {
  @ApiProperty({ type: [GroupDto] }) data: GroupDto[];
}
