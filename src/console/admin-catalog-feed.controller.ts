import { Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { CatalogFeedService } from '../catalog-feed/catalog-feed.service';
import type { FeedState } from '../catalog-feed/catalog-feed-state';
import { shownFeedUrl } from '../catalog-feed/feed-url';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { CatalogFeedStatusDto } from './dto/admin-catalog-feed.dto';

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

const statusOf = (state: FeedState | null): CatalogFeedStatusDto =>
  state
    ? {
        url: shownFeedUrl(state.url),
        last_ok_at: seconds(state.lastOkAt),
        last_read_at: seconds(state.lastReadAt),
        etag: state.etag,
        last_error: state.lastError,
        applied: state.lastOkAt === null ? null : state.applied,
      }
    : { url: null, last_ok_at: null, last_read_at: null, etag: null, last_error: null, applied: null };

/** The catalog feed (CATALOG_FEED_URL): its state, and a read now. Registered before AdminModelsController, whose `:id` would take `feed`. */
@AdminApi('api/admin/models/feed')
export class AdminCatalogFeedController {
  constructor(private readonly feed: CatalogFeedService) {}

  @Get()
  @ApiOperation({ summary: 'The catalog feed: its URL, the last good read, the ETag, the last error and what the last good read changed' })
  @ApiOkResponse({ type: CatalogFeedStatusDto })
  async status(): Promise<CatalogFeedStatusDto> {
    return statusOf(await this.feed.state());
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Read the feed now (If-None-Match: a 304 changes nothing) and merge it as a release is merged; a bad document changes nothing and the answer says why (409 without CATALOG_FEED_URL)',
  })
  @ApiOkResponse({ type: CatalogFeedStatusDto })
  async refresh(): Promise<CatalogFeedStatusDto> {
    if (!this.feed.configured) throw new AppError(ErrorCode.Conflict, 'no catalog feed is configured (set CATALOG_FEED_URL)');
    return statusOf(await this.feed.refresh());
  }
}
