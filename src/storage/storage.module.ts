import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { FamiliesModule } from '../families/families.module';
import { JobsModule } from '../jobs/jobs.module';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { TasksModule } from '../tasks/tasks.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { AdminVideoStoreController } from './admin-video-store.controller';
import { ContentAccessGuard } from './content-access.guard';
import { ProviderVideoSource } from './provider-video-source.service';
import { SignedLinksService } from './signed-links.service';
import { SourceVideos } from './source-videos.service';
import { StoredVideoRemover } from './stored-video-remover.service';
import { OnDemandThumbnail } from './on-demand-thumbnail.service';
import { OutputExpiry } from './output-expiry';
import { ThumbnailMaker } from './thumbnail-maker';
import { VideoArchiveEntity } from './video-archive.entity';
import { DeliveredVideoSettlement } from './delivered-video-settlement';
import { VideoArchiveJob } from './video-archive.job';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoDeliveryService } from './video-delivery.service';
import { VideoObjectKeys } from './video-object-keys';
import { videoStoreProvider } from './video-store.provider';
import { VideoStoreMetrics } from './video-store-metrics.service';

/** The gateway's own copy of finished videos: the store (file, S3), archiving (the `video_archives` table, which only this module touches), serving, signed links, thumbnails. */
@Module({
  imports: [
    TypeOrmModule.forFeature([VideoArchiveEntity]),
    AuthModule,
    TasksModule,
    UpstreamModule,
    FamiliesModule,
    JobsModule,
    MetricsRegistryModule,
  ],
  controllers: [AdminVideoStoreController],
  providers: [
    videoStoreProvider,
    VideoObjectKeys,
    OutputExpiry,
    SignedLinksService,
    ProviderVideoSource,
    ThumbnailMaker,
    OnDemandThumbnail,
    VideoArchiveRepository,
    VideoArchiveJob,
    DeliveredVideoSettlement,
    VideoDeliveryService,
    StoredVideoRemover,
    VideoStoreMetrics,
    ContentAccessGuard,
    SourceVideos,
  ],
  exports: [
    SignedLinksService,
    SourceVideos,
    VideoDeliveryService,
    StoredVideoRemover,
    ContentAccessGuard,
    VideoArchiveJob,
    VideoArchiveRepository,
  ],
})
export class StorageModule {}
