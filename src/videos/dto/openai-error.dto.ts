import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'OpenAIErrorDetail' })
export class OpenAiErrorDetailDto {
  @ApiProperty({ example: 'unknown model: alpha/v7' })
  message: string;

  @ApiProperty({
    example: 'invalid_request_error',
    description:
      'invalid_request_error (400, 404, 409, 413), authentication_error (401), insufficient_quota (402), permission_error (403), rate_limit_error (429), server_error (5xx)',
  })
  type: string;

  @ApiProperty({ nullable: true, type: String, example: 'model', description: 'the request field at fault, when there is one' })
  param: string | null;

  @ApiProperty({ example: 'invalid_request' })
  code: string;
}

/** Error body on /v1/videos: OpenAI's shape, so that its SDKs raise typed errors. */
@ApiSchema({ name: 'OpenAIError', description: 'Error body on /v1/videos: `{error: {message, type, param, code}}`.' })
export class OpenAiErrorDto {
  @ApiProperty({ type: OpenAiErrorDetailDto })
  error: OpenAiErrorDetailDto;
}
