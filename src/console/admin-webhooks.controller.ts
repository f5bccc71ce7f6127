import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { AdminFailingEndpointListDto } from '../webhooks/dto/webhook.dto';
import { WebhookDeliveryLogRepository } from '../webhooks/webhook-delivery-log.repository';
import { WebhookEndpointRepository } from '../webhooks/webhook-endpoint.repository';
import { toFailingEndpointView } from '../webhooks/webhook.views';

@AdminApi('api/admin/webhooks')
export class AdminWebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryLogRepository,
  ) {}

  @Get('failing')
  @ApiOperation({
    summary: "Customers' webhook endpoints that are failing or disabled, the longest failing first, with their latest error",
  })
  @ApiOkResponse({ type: AdminFailingEndpointListDto })
  async failing(): Promise<AdminFailingEndpointListDto> {
    const endpoints = await this.endpoints.failing();
    const lastFailures = await this.deliveries.lastErrors(endpoints.map((endpoint) => endpoint.id));
    return { data: endpoints.map((endpoint) => toFailingEndpointView(endpoint, lastFailures.get(endpoint.id))) };
  }
}
