import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { FamiliesModule } from '../families/families.module';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { VideoContentController } from './video-content.controller';
import { VideoContentService } from './video-content.service';
import { VideoQueriesService } from './video-queries.service';
import { VideosController } from './videos.controller';

/** /v1/videos: renders the flat OpenAI-style form (submits go through SubmitPipeline), and the content proxy. */
@Module({
  imports: [AuthModule, TasksModule, UpstreamModule, FamiliesModule, StorageModule],
  controllers: [VideoContentController, VideosController],
  providers: [VideoQueriesService, VideoContentService],
  // The web console streams a signed-in customer's video through the same proxy.
  exports: [VideoContentService],
})
export class VideosModule {}
