import { Controller, Delete, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { ApiKeysService } from '../auth/api-keys.service';
import { idParamPipe } from '../common/http/id-param.pipe';
import { ApiKeyDto } from './dto/admin-responses.dto';

@ApiTags('admin')
@ApiBearerAuth('admin')
@UseGuards(AdminGuard)
@Controller('api/admin/keys')
export class AdminKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key (takes effect at once on this instance)' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiNotFoundResponse({ description: 'Unknown key' })
  async revoke(@Param('id', idParamPipe) id: number): Promise<ApiKeyDto> {
    return this.keys.view(await this.keys.revoke(id));
  }
}
