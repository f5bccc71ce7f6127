import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../common/http/validation';
import { WEBHOOK_EVENT_TYPES } from '../webhook-endpoint.entity';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/hooks/video', description: 'http(s); a public host unless MEDIA_ALLOW_PRIVATE_HOSTS=true' })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true, description: 'default: every event' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: string[];
}

@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_3Xb2kP0aLr9QmZ7tYc1VnH4s' }) id: string;
  @ApiProperty({ example: 'https://example.com/hooks/video' }) url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: string[];
  @ApiProperty({ enum: ['enabled', 'disabled'], description: '`disabled` after 3 days of failed deliveries' }) status: string;
  @ApiProperty({ example: 1764000000, description: 'unix seconds' }) created_at: number;
}

@ApiSchema({ name: 'CreatedWebhookEndpoint' })
export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5P4dBSkjBUs=',
    description: 'Standard Webhooks signing secret; shown only in this response',
  })
  secret: string;
}

@ApiSchema({ name: 'WebhookEndpointList' })
export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) data: WebhookEndpointDto[];
}

@ApiSchema({
  name: 'WebhookDelivery',
  description: 'One attempt to deliver one event to one endpoint; a retry is a new attempt with the same `event_id`.',
})
export class WebhookDeliveryDto {
  @ApiProperty({ example: 'whd_Q2n8wT5yUe1rLk0pXa9sDf3g' }) id: string;
  @ApiProperty({ example: 'evt_7HcS2mQx9LrB4tYvN1aKp0Ze', description: 'the `webhook-id` header, the same on every attempt' })
  event_id: string;
  @ApiProperty({ enum: ['video.completed', 'video.failed', 'webhook.test'] }) type: string;
  @ApiProperty({ nullable: true, type: String, example: 'task_Ab3...' }) task_id: string | null;
  @ApiProperty({ example: 1 }) attempt: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    example: 500,
    description: "the endpoint's HTTP status; null before the attempt or without an answer",
  })
  status_code: number | null;
  @ApiProperty({ nullable: true, type: String, example: 'HTTP 500' }) error: string | null;
  @ApiProperty({ example: 1764000000 }) created_at: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'when the event is tried (again) at this endpoint; null once delivered or given up',
  })
  next_attempt_at: number | null;
  @ApiProperty({ nullable: true, type: Number }) delivered_at: number | null;
}

@ApiSchema({ name: 'WebhookDeliveryList' })
export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) data: WebhookDeliveryDto[];
}

@ApiSchema({
  name: 'WebhookEvent',
  description:
    'The body POSTed to an endpoint. Headers: `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (unix seconds), ' +
    '`webhook-signature` (`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the `whsec_` secret), ' +
    '`content-type: application/json`. Standard Webhooks: verify with the `openai` SDK (`client.webhooks.verifySignature(body, headers, secret)`) or the `standardwebhooks` library.',
})
export class WebhookEventDto {
  @ApiProperty({ example: 'evt_7HcS2mQx9LrB4tYvN1aKp0Ze' }) id: string;
  @ApiProperty({ example: 'event' }) object: string;
  @ApiProperty({ enum: ['video.completed', 'video.failed', 'webhook.test'] }) type: string;
  @ApiProperty({ example: 1764000000 }) created_at: number;
  @ApiProperty({
    description: 'the task in the flat form of GET /v1/videos/{id} (`webhook.test`: the endpoint)',
    example: { id: 'task_Ab3', object: 'video', status: 'completed' },
  })
  data: Record<string, unknown>;
}

@ApiSchema({ name: 'ConsoleWebhookEndpoint' })
export class ConsoleWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({ nullable: true, type: Number, description: 'since when its attempts fail (unix seconds); null while it is healthy' })
  failing_since: number | null;
  @ApiProperty({ nullable: true, type: Number }) disabled_at: number | null;
  @ApiProperty({ nullable: true, type: Number }) last_success_at: number | null;
}

@ApiSchema({ name: 'ConsoleWebhookEndpointList' })
export class ConsoleWebhookEndpointListDto {
  @ApiProperty({ type: [ConsoleWebhookEndpointDto] }) data: ConsoleWebhookEndpointDto[];
}

@ApiSchema({ name: 'AdminFailingWebhookEndpoint' })
export class AdminFailingEndpointDto extends ConsoleWebhookEndpointDto {
  @ApiProperty() user_id: number;
  @ApiProperty({ nullable: true, type: Number, description: "the latest failed attempt's HTTP status" }) last_status_code: number | null;
  @ApiProperty({ nullable: true, type: String, description: "the latest failed attempt's error" }) last_error: string | null;
  @ApiProperty({ nullable: true, type: Number }) last_attempt_at: number | null;
}

@ApiSchema({ name: 'AdminFailingWebhookEndpointList' })
export class AdminFailingEndpointListDto {
  @ApiProperty({ type: [AdminFailingEndpointDto] }) data: AdminFailingEndpointDto[];
}
