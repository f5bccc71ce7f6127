import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Patch, Post, Query, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeysService } from '../auth/api-keys.service';
import { hashPassword } from '../auth/password';
import { toApiKeyView, toUserView } from '../auth/user.view';
import { UsersService } from '../auth/users.service';
import { LedgerService } from '../billing/ledger.service';
import { strictValidationPipe } from '../common/validation';
import { AdjustDto, CreateKeyDto, CreateUserDto, TopUpDto, UpdateUserDto } from './dto/admin-user.dto';
import { PageQueryDto } from './dto/admin-query.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@UsePipes(strictValidationPipe)
@Controller('api/admin/users')
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly keys: ApiKeysService,
    private readonly ledger: LedgerService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (an opening balance is written as a top-up)' })
  async create(@Body() body: CreateUserDto) {
    const user = await this.users.create({
      username: body.username,
      group: body.group,
      role: body.role,
      passwordHash: body.password ? await hashPassword(body.password) : null,
    });
    if (body.quota) await this.ledger.topUp(user.id, body.quota, 'opening balance');
    const fresh = await this.users.get(user.id);
    return { id: fresh.id, username: fresh.username, group: fresh.group, quota: fresh.quota, used_quota: fresh.usedQuota };
  }

  @Get()
  @ApiOperation({ summary: 'List users' })
  async list(@Query() query: PageQueryDto) {
    const { data, total } = await this.users.list(query.page, query.page_size);
    return { data: data.map(toUserView), total };
  }

  @Get(':id')
  async get(@Param('id', ParseIntPipe) id: number) {
    return toUserView(await this.users.get(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change group, status, verification approval or password' })
  async update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateUserDto) {
    const user = await this.users.update(id, {
      group: body.group,
      status: body.status,
      verificationEnabled: body.verification_enabled,
      passwordHash: body.password ? await hashPassword(body.password) : undefined,
    });
    return toUserView(user);
  }

  @Post(':id/topup')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add quota; writes a topup log' })
  async topUp(@Param('id', ParseIntPipe) id: number, @Body() body: TopUpDto) {
    await this.users.get(id);
    const log = await this.ledger.topUp(id, body.quota, 'top-up by admin');
    return { id, quota: log.balanceAfter };
  }

  @Post(':id/adjust')
  @HttpCode(200)
  @ApiOperation({ summary: 'Signed correction of the balance; writes an adjust log' })
  async adjust(@Param('id', ParseIntPipe) id: number, @Body() body: AdjustDto) {
    const log = await this.ledger.adjust(id, body.quota, body.reason);
    return { id, quota: log.balanceAfter };
  }

  @Post(':id/keys')
  @ApiOperation({ summary: 'Issue an API key; the key is shown only in this response' })
  async createKey(@Param('id', ParseIntPipe) id: number, @Body() body: CreateKeyDto) {
    const { apiKey, key } = await this.keys.issue(id, body.name, body.models);
    return { id: apiKey.id, name: apiKey.name, key, models: apiKey.models };
  }

  @Get(':id/keys')
  async listKeys(@Param('id', ParseIntPipe) id: number) {
    await this.users.get(id);
    return { data: (await this.keys.listForUser(id)).map(toApiKeyView) };
  }
}
