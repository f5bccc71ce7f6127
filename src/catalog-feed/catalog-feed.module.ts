import { Module } from '@nestjs/common';
import { FamiliesModule } from '../families/families.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { CatalogFeedStateStore } from './catalog-feed-state';
import { CatalogFeedService } from './catalog-feed.service';
import { FeedReader } from './feed-reader';

/** The catalog feed: a published catalog document read, checked and merged as a release's builtin entries are. */
@Module({
  imports: [FamiliesModule, UpstreamModule],
  providers: [FeedReader, CatalogFeedStateStore, CatalogFeedService],
  exports: [CatalogFeedService],
})
export class CatalogFeedModule {}
