import { Body, Controller, Get, Param, ParseIntPipe, Patch, Post, UseGuards, UsePipes } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { strictValidationPipe } from '../common/validation';
import { ChannelSettings } from '../upstream/channel.entity';
import { ChannelsService, toChannelView } from '../upstream/channels.service';
import { CreateChannelDto, UpdateChannelDto } from './dto/admin-channel.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@UsePipes(strictValidationPipe)
@Controller('api/admin/channels')
export class AdminChannelsController {
  constructor(private readonly channels: ChannelsService) {}

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
}
