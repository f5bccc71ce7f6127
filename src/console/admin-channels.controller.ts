import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Patch, Post, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { strictValidationPipe } from '../common/validation';
import { ChannelSettings } from '../upstream/channel.entity';
import { ChannelsService, toChannelView } from '../upstream/channels.service';
import { ChannelTestResultDto, ConsoleChannelProbeService } from './console-channel-probe.service';
import { CreateChannelDto, UpdateChannelDto } from './dto/admin-channel.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@UsePipes(strictValidationPipe)
@Controller('api/admin/channels')
export class AdminChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly probe: ConsoleChannelProbeService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an upstream channel; its api_key is never shown again' })
  async create(@Body() body: CreateChannelDto) {
    const channel = await this.channels.create({
      name: body.name,
      platform: body.platform,
      baseUrl: body.base_url,
      apiKey: body.api_key,
      models: body.models,
      modelMapping: body.model_mapping,
      settings: body.settings as ChannelSettings | undefined,
      groups: body.groups,
      priority: body.priority,
      weight: body.weight,
      status: body.status,
    });
    return { id: channel.id };
  }

  @Get()
  async list() {
    return { data: (await this.channels.list()).map(toChannelView) };
  }

  @Get(':id')
  async get(@Param('id', ParseIntPipe) id: number) {
    return toChannelView(await this.channels.get(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Edit, enable or disable a channel' })
  async update(@Param('id', ParseIntPipe) id: number, @Body() body: UpdateChannelDto) {
    const channel = await this.channels.update(id, {
      name: body.name,
      baseUrl: body.base_url,
      apiKey: body.api_key,
      models: body.models,
      modelMapping: body.model_mapping,
      settings: body.settings as ChannelSettings | undefined,
      groups: body.groups,
      priority: body.priority,
      weight: body.weight,
      status: body.status,
    });
    return toChannelView(channel);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: "Test connectivity: the family adapter's probe, or a plain reachability check of base_url" })
  @ApiOkResponse({ type: ChannelTestResultDto })
  test(@Param('id', ParseIntPipe) id: number): Promise<ChannelTestResultDto> {
    return this.probe.test(id);
  }
}
