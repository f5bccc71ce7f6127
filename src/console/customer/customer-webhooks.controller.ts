import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ConsoleWebhookEndpointDto,
  ConsoleWebhookEndpointListDto,
  CreatedWebhookEndpointDto,
  CreateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
} from '../../webhooks/dto/webhook.dto';
import { CallbackDeliveriesQueryDto, CallbackSecretDto, CallbackSecretStateDto } from '../../webhooks/dto/callback.dto';
import { WebhookCallbacksService } from '../../webhooks/webhook-callbacks.service';
import { WebhookEndpointsService } from '../../webhooks/webhook-endpoints.service';
import { toCallbackSecretStateView, toConsoleEndpointView, toCreatedEndpointView, toDeliveryView } from '../../webhooks/webhook.views';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';

/** The customer's webhook endpoints in the console: the /v1/webhooks operations, plus resend and enable again, and the callback secret's state. */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/webhooks')
export class CustomerWebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly callbacks: WebhookCallbacksService,
  ) {}

  @Get('callback-secret')
  @ApiOperation({ summary: 'Whether the account has a callback secret, and when it was created and last rotated (never the secret)' })
  @ApiOkResponse({ type: CallbackSecretStateDto })
  async callbackSecret(@Req() req: ConsoleRequest): Promise<CallbackSecretStateDto> {
    return toCallbackSecretStateView(await this.callbacks.secretState(req.user!.id));
  }

  @Post('callback-secret')
  @ApiOperation({ summary: 'Create or rotate the callback secret; shown only in this response' })
  @ApiCreatedResponse({ type: CallbackSecretDto })
  async rotateCallbackSecret(@Req() req: ConsoleRequest): Promise<CallbackSecretDto> {
    return { secret: await this.callbacks.rotateSecret(req.user!.id) };
  }

  @Get('callback-deliveries')
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  async callbackDeliveries(@Req() req: ConsoleRequest, @Query() query: CallbackDeliveriesQueryDto): Promise<WebhookDeliveryListDto> {
    return { data: (await this.callbacks.deliveriesOf(req.user!.id, query.task_id)).map(toDeliveryView) };
  }

  @Get()
  @ApiOkResponse({ type: ConsoleWebhookEndpointListDto })
  async list(@Req() req: ConsoleRequest): Promise<ConsoleWebhookEndpointListDto> {
    return { data: (await this.endpoints.list(req.user!.id)).map(toConsoleEndpointView) };
  }

  @Post()
  @ApiOperation({ summary: 'Register an endpoint; the signing secret is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointDto })
  async create(@Req() req: ConsoleRequest, @Body() body: CreateWebhookDto): Promise<CreatedWebhookEndpointDto> {
    const { endpoint, secret } = await this.endpoints.create(req.user!.id, body.url, body.events);
    return toCreatedEndpointView(endpoint, secret);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Req() req: ConsoleRequest, @Param('id') id: string): Promise<void> {
    await this.endpoints.delete(req.user!.id, id);
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  async deliveries(@Req() req: ConsoleRequest, @Param('id') id: string): Promise<WebhookDeliveryListDto> {
    return { data: (await this.endpoints.deliveriesOf(req.user!.id, id)).map(toDeliveryView) };
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookDeliveryDto })
  async test(@Req() req: ConsoleRequest, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return toDeliveryView(await this.endpoints.test(req.user!.id, id));
  }

  @Post(':id/deliveries/:deliveryId/resend')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send that attempt’s event to the endpoint again now' })
  async resend(@Req() req: ConsoleRequest, @Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<{ queued: true }> {
    await this.endpoints.resend(req.user!.id, id, deliveryId);
    return { queued: true };
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a disabled endpoint again (events from now on)' })
  @ApiOkResponse({ type: ConsoleWebhookEndpointDto })
  async enable(@Req() req: ConsoleRequest, @Param('id') id: string): Promise<ConsoleWebhookEndpointDto> {
    return toConsoleEndpointView(await this.endpoints.enable(req.user!.id, id));
  }
}
