import { Body, Controller, Delete, Get, Param, ParseIntPipe, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeysService } from '../../auth/api-keys.service';
import { ConsoleCustomerGuard } from '../console-customer.guard';
import type { ConsoleRequest } from '../console-request';
import { CustomerCreateKeyDto, CustomerUpdateKeyDto } from './customer-key.dto';
import { CreatedKeyDto, CustomerKeyDto, CustomerKeyListDto } from './customer-views.dto';

/** The customer's own API keys: create (shown once), list with their use, change their limits, revoke. */
@ApiTags('console')
@UseGuards(ConsoleCustomerGuard)
@Controller('console/api/keys')
export class CustomerKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOkResponse({ type: CustomerKeyListDto })
  async list(@Req() req: ConsoleRequest): Promise<CustomerKeyListDto> {
    return { data: (await this.keys.listForUser(req.user!.id)).map((key) => this.keys.view(key)) };
  }

  @Post()
  @ApiOperation({ summary: 'Issue a key with an optional model allowlist and limits; the key is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedKeyDto })
  async create(@Req() req: ConsoleRequest, @Body() body: CustomerCreateKeyDto): Promise<CreatedKeyDto> {
    const { apiKey, key } = await this.keys.issue(req.user!.id, body.name, body.models, body);
    return { ...this.keys.view(apiKey), key };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change one of your keys: name, models, limits (null lifts a limit); 404 for anyone else’s' })
  @ApiOkResponse({ type: CustomerKeyDto })
  async update(
    @Req() req: ConsoleRequest,
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CustomerUpdateKeyDto,
  ): Promise<CustomerKeyDto> {
    return this.keys.view(await this.keys.update(id, body, req.user!.id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke one of your keys (404 for anyone else’s)' })
  @ApiOkResponse({ type: CustomerKeyDto })
  async revoke(@Req() req: ConsoleRequest, @Param('id', ParseIntPipe) id: number): Promise<CustomerKeyDto> {
    return this.keys.view(await this.keys.revoke(id, req.user!.id));
  }
}
