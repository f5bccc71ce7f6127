import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { OpenAiErrorDto } from '../videos/dto/openai-error.dto';
import {
  CreatedWebhookEndpointDto,
  CreateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookEndpointListDto,
  WebhookEventDto,
} from './dto/webhook.dto';
import { CallbackDeliveriesQueryDto, CallbackSecretDto } from './dto/callback.dto';
import { WebhookCallbacksService } from './webhook-callbacks.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { toCreatedEndpointView, toDeliveryView, toEndpointView } from './webhook.views';

/** An account's webhook endpoints, with API-key auth; errors in OpenAI's shape like /v1/videos. */
@ApiTags('webhooks')
@ApiBearerAuth('api-key')
@ApiExtraModels(WebhookEventDto)
@ApiUnauthorizedResponse({ type: OpenAiErrorDto, description: 'API key missing, invalid or expired' })
@UseGuards(ApiKeyGuard)
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly callbacks: WebhookCallbacksService,
  ) {}

  @Post('callback-secret')
  @ApiOperation({
    summary: "Create (or rotate) the account's callback secret; shown only in this answer",
    description:
      'A submit on either surface may carry `callback_url`; when that task ends, its `video.completed` / `video.failed` event is POSTed there ' +
      "with the Standard Webhooks headers, signed with this secret, retried like an endpoint's events. A second call rotates it: " +
      'every attempt from then on (retries included) is signed with the new secret.',
  })
  @ApiCreatedResponse({ type: CallbackSecretDto })
  async rotateCallbackSecret(@Req() req: AuthenticatedRequest): Promise<CallbackSecretDto> {
    return { secret: await this.callbacks.rotateSecret(req.user!.id) };
  }

  @Get('callback-deliveries')
  @ApiOperation({ summary: "The account's callback attempts, newest first (the last 100); of one task with `task_id`" })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiBadRequestResponse({ type: OpenAiErrorDto })
  async callbackDeliveries(@Query() query: CallbackDeliveriesQueryDto, @Req() req: AuthenticatedRequest): Promise<WebhookDeliveryListDto> {
    return { data: (await this.callbacks.deliveriesOf(req.user!.id, query.task_id)).map(toDeliveryView) };
  }

  @Post()
  @ApiOperation({
    summary: 'Register an endpoint; the signing secret is shown only in this answer',
    description:
      'Events (`video.completed`, `video.failed`) are POSTed as the `WebhookEvent` schema with Standard Webhooks headers ' +
      '`webhook-id`, `webhook-timestamp`, `webhook-signature`; retried on anything but a 2xx within 10 s after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; ' +
      'an endpoint failing for 3 days is disabled.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointDto })
  @ApiBadRequestResponse({ type: OpenAiErrorDto, description: 'Not an http(s) URL, a private or loopback host, an unknown event' })
  async create(@Body() body: CreateWebhookDto, @Req() req: AuthenticatedRequest): Promise<CreatedWebhookEndpointDto> {
    const { endpoint, secret } = await this.endpoints.create(req.user!.id, body.url, body.events);
    return toCreatedEndpointView(endpoint, secret);
  }

  @Get()
  @ApiOperation({ summary: "The account's endpoints (without secrets)" })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  async list(@Req() req: AuthenticatedRequest): Promise<WebhookEndpointListDto> {
    return { data: (await this.endpoints.list(req.user!.id)).map(toEndpointView) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove an endpoint; nothing more is sent to it' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: OpenAiErrorDto })
  async delete(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<void> {
    await this.endpoints.delete(req.user!.id, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "The endpoint's delivery attempts, newest first (the last 100)" })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiNotFoundResponse({ type: OpenAiErrorDto })
  async deliveries(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<WebhookDeliveryListDto> {
    return { data: (await this.endpoints.deliveriesOf(req.user!.id, id)).map(toDeliveryView) };
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a `webhook.test` event now (once, no retries); answers with the attempt',
    description:
      "It takes one of the endpoint's 4 delivery slots on the instance, shared with its events; with all 4 in flight nothing is sent and the answer is a 429.",
  })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiNotFoundResponse({ type: OpenAiErrorDto })
  @ApiTooManyRequestsResponse({
    type: OpenAiErrorDto,
    description: 'The endpoint already has 4 deliveries in flight on this instance; Retry-After (1 s, or 10 s for a slow endpoint)',
  })
  async test(@Param('id') id: string, @Req() req: AuthenticatedRequest): Promise<WebhookDeliveryDto> {
    return toDeliveryView(await this.endpoints.test(req.user!.id, id));
  }
}
