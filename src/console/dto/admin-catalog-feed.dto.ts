import { ApiProperty } from '@nestjs/swagger';
import type { FeedState } from '../../catalog-feed/catalog-feed-state';
import { shownFeedUrl } from '../../catalog-feed/feed-url';

/** What a merge did, by model id. */
export class CatalogChangesDto {
  @ApiProperty({ type: [String], example: ['wan-2.7'] })
  added: string[];

  @ApiProperty({ type: [String], example: ['kling-v3'] })
  changed: string[];

  @ApiProperty({ type: [String] })
  unchanged: string[];

  @ApiProperty({ type: [String], description: 'entries the operator changed or made, left as the operator has them' })
  kept_operator_changes: string[];
}

/** The catalog feed as the last read (on any instance) left it. */
export class CatalogFeedStatusDto {
  @ApiProperty({
    nullable: true,
    example: 'https://feeds.example.com/catalog.json',
    description: 'CATALOG_FEED_URL without credentials or query; null: no feed configured',
  })
  url: string | null;

  @ApiProperty({ nullable: true, description: 'unix seconds of the last read that ended well (a document applied, or 304 Not Modified)' })
  last_ok_at: number | null;

  @ApiProperty({ nullable: true, description: 'unix seconds of the last read, whatever its end' })
  last_read_at: number | null;

  @ApiProperty({ nullable: true, example: '"c0ffee"', description: 'the ETag of the document applied last, sent as If-None-Match' })
  etag: string | null;

  @ApiProperty({
    nullable: true,
    example: 'models[3].prices[0].price must not be less than 0',
    description:
      'why the last read changed nothing (unreachable, slow, too large, not JSON, wrong version, an invalid entry, a bad signature); null once a read ends well',
  })
  last_error: string | null;

  @ApiProperty({
    type: CatalogChangesDto,
    nullable: true,
    description: 'what the last good read did, by model id (at most 200 ids a list); a 304: nothing',
  })
  applied: CatalogChangesDto | null;
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** The state as the admin API shows it (null: no feed configured). */
export const feedStatusOf = (state: FeedState | null): CatalogFeedStatusDto =>
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
