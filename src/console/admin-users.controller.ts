import { Body, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { ApiKeysService } from '../auth/api-keys.service';
import { hashPassword } from '../auth/password';
import { toUserView } from '../auth/user.view';
import { UsersService } from '../auth/users.service';
import { LedgerService } from '../billing/ledger.service';
import { idParamPipe } from '../common/http/id-param.pipe';
import type { ConsoleRequest } from './console-request';
import { ConsoleSessionsService } from './console-sessions.service';
import { AdjustDto, CreateKeyDto, CreateUserDto, TopUpDto, UpdateKeyDto, UpdateUserDto } from './dto/admin-user.dto';
import { PageQueryDto } from './dto/admin-query.dto';
import { ApiKeyDto, ApiKeyListDto, BalanceDto, CreatedUserDto, IssuedKeyDto, UserDto, UserListDto } from './dto/admin-responses.dto';

@ApiBadRequestResponse({ description: 'Bad input; `param` names the field' })
@AdminApi('api/admin/users')
export class AdminUsersController {
  constructor(
    private readonly users: UsersService,
    private readonly keys: ApiKeysService,
    private readonly ledger: LedgerService,
    private readonly sessions: ConsoleSessionsService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (an opening balance is written as a top-up)' })
  @ApiCreatedResponse({ type: CreatedUserDto })
  async create(@Body() body: CreateUserDto): Promise<CreatedUserDto> {
    const user = await this.users.create({
      username: body.username,
      group: body.group,
      role: body.role,
      passwordHash: body.password ? await hashPassword(body.password) : null,
      rpm: body.rpm,
    });
    if (body.quota) await this.ledger.topUp(user.id, body.quota, 'opening balance');
    const fresh = await this.users.get(user.id);
    return { id: fresh.id, username: fresh.username, group: fresh.group, quota: fresh.quota, used_quota: fresh.usedQuota };
  }

  @Get()
  @ApiOperation({ summary: 'List users' })
  @ApiOkResponse({ type: UserListDto })
  async list(@Query() query: PageQueryDto): Promise<UserListDto> {
    const { data, total } = await this.users.list(query.page, query.page_size);
    return { data: data.map(toUserView), total };
  }

  @Get(':id')
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async get(@Param('id', idParamPipe) id: number): Promise<UserDto> {
    return toUserView(await this.users.get(id));
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      "Change group, status, verification approval, rate limit (rpm) or password (a new password signs the user out of every console session but the caller's own)",
  })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async update(@Param('id', idParamPipe) id: number, @Body() body: UpdateUserDto, @Req() req: ConsoleRequest): Promise<UserDto> {
    const user = await this.users.update(id, {
      group: body.group,
      status: body.status,
      verificationEnabled: body.verification_enabled,
      passwordHash: body.password ? await hashPassword(body.password) : undefined,
      rpm: body.rpm,
    });
    // Whoever knew the old password is signed out; an admin user changing their own keeps this session.
    if (body.password) await this.sessions.closeAllOf(id, req.consoleSession?.user?.id === id ? req.consoleSession.id : undefined);
    return toUserView(user);
  }

  @Post(':id/topup')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add quota; writes a topup log' })
  @ApiOkResponse({ type: BalanceDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async topUp(@Param('id', idParamPipe) id: number, @Body() body: TopUpDto): Promise<BalanceDto> {
    await this.users.get(id);
    const log = await this.ledger.topUp(id, body.quota, 'top-up by admin');
    return { id, quota: log.balanceAfter };
  }

  @Post(':id/adjust')
  @HttpCode(200)
  @ApiOperation({ summary: 'Signed correction of the balance; writes an adjust log' })
  @ApiOkResponse({ type: BalanceDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async adjust(@Param('id', idParamPipe) id: number, @Body() body: AdjustDto): Promise<BalanceDto> {
    const log = await this.ledger.adjust(id, body.quota, body.reason);
    return { id, quota: log.balanceAfter };
  }

  @Post(':id/keys')
  @ApiOperation({
    summary:
      'Issue an API key with its own limits (quota, budget per period, expiry, allowed addresses, rpm); the key is shown only in this response',
  })
  @ApiCreatedResponse({ type: IssuedKeyDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async createKey(@Param('id', idParamPipe) id: number, @Body() body: CreateKeyDto): Promise<IssuedKeyDto> {
    const { apiKey, key } = await this.keys.issue(id, body.name, body.models, body);
    return { ...this.keys.view(apiKey), key };
  }

  @Patch(':id/keys/:key_id')
  @ApiOperation({
    summary: 'Change a key’s name, models or limits (null lifts a limit); every instance applies them on the key’s next use',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiNotFoundResponse({ description: 'Unknown user or key (or a key of another user)' })
  async updateKey(
    @Param('id', idParamPipe) id: number,
    @Param('key_id', idParamPipe) keyId: number,
    @Body() body: UpdateKeyDto,
  ): Promise<ApiKeyDto> {
    await this.users.get(id);
    return this.keys.view(await this.keys.update(keyId, body, id));
  }

  @Get(':id/keys')
  @ApiOperation({ summary: 'A user’s keys with their limits and their use (used_quota, budget_used until budget_resets_at, last_used_at)' })
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiNotFoundResponse({ description: 'Unknown user' })
  async listKeys(@Param('id', idParamPipe) id: number): Promise<ApiKeyListDto> {
    await this.users.get(id);
    return { data: (await this.keys.listForUser(id)).map((key) => this.keys.view(key)) };
  }
}
