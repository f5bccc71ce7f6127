import { Module } from '@nestjs/common';
import { GenerationsModule } from '../generations/generations.module';
import { AlphaUpstreamModule } from '../families/alpha/alpha-family.module';
import { AlphaVideoDrafts } from '../families/alpha/alpha-drafts.service';
import { VideoContentController } from './video-content.controller';
import { VideoContentService } from './video-content.service';
import { VideoQueriesService } from './video-queries.service';
import { VideoSubmitService } from './video-submit.service';
import { VideosController } from './videos.controller';

/** /v1/videos: the flat OpenAI-style surface (family A, and family B via BetaSubmitService), content proxy. */
@Module({
  imports: [GenerationsModule, AlphaUpstreamModule],
  controllers: [VideoContentController, VideosController],
  providers: [VideoSubmitService, AlphaVideoDrafts, VideoQueriesService, VideoContentService],
  // The web console streams a signed-in customer's video through the same proxy.
  exports: [VideoContentService],
})
export class VideosModule {}
