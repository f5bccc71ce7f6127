import { Delete, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { ApiKeysService } from '../auth/api-keys.service';
import { idParamPipe } from '../common/http/id-param.pipe';
import { ApiKeyDto } from './dto/admin-responses.dto';

@AdminApi('api/admin/keys')
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
