import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { FamilyRegistry } from '../families/family-registry';
import { PlatformListDto } from './dto/admin-platforms.dto';
import { platformViews } from './platform-views';

@AdminApi('api/admin/platforms')
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
