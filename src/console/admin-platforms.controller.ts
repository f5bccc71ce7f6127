import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { FamilyRegistry } from '../families/family-registry';
import { PlatformListDto } from './dto/admin-platforms.dto';
import { platformViews } from './platform-views';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@Controller('api/admin/platforms')
export class AdminPlatformsController {
  constructor(private readonly families: FamilyRegistry) {}

  @Get()
  @ApiOperation({
    summary:
      'The provider families a channel may be of: label (both console languages), models, and the channel settings each takes (type, default, required, secret)',
  })
  @ApiOkResponse({ type: PlatformListDto })
  list(): PlatformListDto {
    return { data: platformViews(this.families) };
  }
}
