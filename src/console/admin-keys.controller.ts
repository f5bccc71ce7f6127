import { Controller, Delete, Param, ParseIntPipe, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeysService } from '../auth/api-keys.service';
import { toApiKeyView } from '../auth/user.view';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@Controller('api/admin/keys')
export class AdminKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key (takes effect at once on this instance)' })
  async revoke(@Param('id', ParseIntPipe) id: number) {
    return toApiKeyView(await this.keys.revoke(id));
  }
}
