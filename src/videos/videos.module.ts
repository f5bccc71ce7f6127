import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { ModelListings } from './model-listings.service';
import { ModelsController } from './models.controller';
import { FamiliesModule } from '../families/families.module';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { VideoContentController } from './video-content.controller';
import { VideoContentService } from './video-content.service';
import { VideoQueriesService } from './video-queries.service';
import { UsageController } from './usage.controller';
import { VideosController } from './videos.controller';

/** /v1/videos (and /v1/models, the catalog as clients see it; /v1/usage, what the account used and paid): renders the flat OpenAI-style form (submits go through SubmitPipeline), and the content proxy. */
@Module({
  imports: [AuthModule, BillingModule, TasksModule, UpstreamModule, FamiliesModule, StorageModule],
  controllers: [VideoContentController, VideosController, ModelsController, UsageController],
  providers: [VideoQueriesService, VideoContentService, ModelListings],
  // The web console streams a signed-in customer's video through the same proxy; the unified surface quotes with ModelListings.
  exports: [VideoContentService, ModelListings],
})
export class VideosModule {}
