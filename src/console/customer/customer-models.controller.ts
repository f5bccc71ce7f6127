import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { VideoModelListDto } from '../../videos/dto/model-list.dto';
import { ModelListings } from '../../videos/model-listings.service';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';

/** The Models and prices page: what GET /v1/videos/models answers a key without an allowlist, for the signed-in customer. */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/models/prices')
export class CustomerModelsController {
  constructor(private readonly listings: ModelListings) {}

  @Get()
  @ApiOperation({ summary: "The models on offer to the customer's group, with their capabilities and the group's prices" })
  @ApiOkResponse({ type: VideoModelListDto })
  list(@Req() req: ConsoleRequest) {
    return this.listings.videoModels({ user: req.user!, apiKey: null });
  }
}
