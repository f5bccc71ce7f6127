import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { ToleratesUnknownFields } from '../../common/http/validation';

@ToleratesUnknownFields()
export class CreateSessionDto {
  @ApiProperty({
    example: 'https://business.example.com/verified?order=42',
    description: "http(s) URL the user's browser returns to; its own query is kept",
  })
  @IsString()
  @MaxLength(2048)
  callback_url: string;
}

export class SessionCreatedDto {
  @ApiProperty({ example: 'vs_3kT9fQ2mXb7LcV1pZ8wR4yNd' }) session_id: string;
  @ApiProperty({ example: 'bt-8f2c0e4a9d', description: 'the provider token (shown in full only here)' }) provider_token: string;
  @ApiProperty({
    example: 'https://h5.provider.example/validate?token=...',
    description: 'send the browser here; valid about 120 s, single use',
  })
  h5_link: string;
}

export class SessionDto {
  @ApiProperty({ example: 'vs_3kT9fQ2mXb7LcV1pZ8wR4yNd' }) session_id: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'expired'] }) status: string;
  @ApiProperty({ nullable: true, type: String, description: 'only once the provider confirmed the check', example: 'group-20260101-abc' })
  group_id: string | null;
  @ApiProperty({ example: 'bt-8***e4a9', description: 'masked' }) provider_token: string;
  @ApiProperty({ nullable: true, type: String, description: 'the resultCode the browser callback reported (unverified)', example: '10000' })
  result_code: string | null;
  @ApiProperty({ description: 'Unix seconds: end of the H5 page' }) expires_at: number;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}
