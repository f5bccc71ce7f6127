import { Body, Controller, Delete, Get, Param, ParseIntPipe, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysService } from '../../auth/api-keys.service';
import { toApiKeyView } from '../../auth/user.view';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerCreateKeyDto } from './customer-key.dto';
import { CreatedKeyDto, CustomerKeyDto, CustomerKeyListDto } from './customer-views.dto';

/** The customer's own API keys: create (shown once), list, revoke. */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/keys')
export class CustomerKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOkResponse({ type: CustomerKeyListDto })
  async list(@Req() req: ConsoleRequest): Promise<CustomerKeyListDto> {
    return { data: (await this.keys.listForUser(req.user!.id)).map(toApiKeyView) };
  }

  @Post()
  @ApiOperation({ summary: 'Issue a key with an optional model allowlist; the key is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedKeyDto })
  async create(@Req() req: ConsoleRequest, @Body() body: CustomerCreateKeyDto): Promise<CreatedKeyDto> {
    const { apiKey, key } = await this.keys.issue(req.user!.id, body.name, body.models);
    return { ...toApiKeyView(apiKey), key };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke one of your keys (404 for anyone else’s)' })
  @ApiOkResponse({ type: CustomerKeyDto })
  async revoke(@Req() req: ConsoleRequest, @Param('id', ParseIntPipe) id: number): Promise<CustomerKeyDto> {
    return toApiKeyView(await this.keys.revoke(id, req.user!.id));
  }
}
