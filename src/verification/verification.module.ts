import { Global, Module } from '@nestjs/common';
import { GAMMA_ASSET_CHECK } from '../families/gamma/gamma-asset-check';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { JobsModule } from '../jobs/jobs.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { AdminApplicationsController } from './admin-applications.controller';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { AssetFollowUpService } from './asset-follow-up.service';
import { AssetReferencesService } from './asset-references.service';
import { AssetRepository } from './asset.repository';
import { AssetsController } from './assets.controller';
import { AssetsService } from './assets.service';
import { CallbackController } from './callback.controller';
import { CallbackService } from './callback.service';
import { GammaControlClient } from '../families/gamma/control-plane/gamma-control.client';
import { VerificationApplicationEntity } from './entities/verification-application.entity';
import { VerificationAssetEntity } from './entities/verification-asset.entity';
import { VerificationGroupEntity } from './entities/verification-group.entity';
import { VerificationSessionEntity } from './entities/verification-session.entity';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { VerificationAccessGuard } from './verification-access.guard';
import { VerificationChannels } from './verification-channels.service';
import { PortraitUploadEntity } from './entities/portrait-upload.entity';
import { PortraitMediaController } from './portrait-media.controller';
import { PortraitUploadRepository } from './portrait-upload.repository';
import { PortraitUploadsService } from './portrait-uploads.service';
import { VerificationApplicationRepository } from './verification-application.repository';
import { VerificationSessionRepository } from './verification-session.repository';
import { VerificationHousekeeping } from './verification-housekeeping';

/** Real-person verification (family C's control plane): applications, sessions, callback, groups, assets. Depends on no family. */
/** Global: family C's module uses GAMMA_ASSET_CHECK without importing this module above it. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      VerificationApplicationEntity,
      VerificationSessionEntity,
      VerificationGroupEntity,
      VerificationAssetEntity,
      PortraitUploadEntity,
    ]),
    AuthModule,
    UpstreamModule,
    JobsModule,
    HousekeepingModule,
  ],
  controllers: [
    ApplicationsController,
    AdminApplicationsController,
    SessionsController,
    CallbackController,
    AssetsController,
    PortraitMediaController,
  ],
  providers: [
    VerificationApplicationRepository,
    VerificationSessionRepository,
    PortraitUploadRepository,
    ApplicationsService,
    SessionsService,
    CallbackService,
    AssetsService,
    AssetRepository,
    AssetReferencesService,
    { provide: GAMMA_ASSET_CHECK, useExisting: AssetReferencesService },
    AssetFollowUpService,
    VerificationChannels,
    VerificationAccessGuard,
    GammaControlClient,
    PortraitUploadsService,
    VerificationHousekeeping,
  ],
  // GAMMA_ASSET_CHECK (global): family C's drafts check the assets they reference. The others: the web console's verification page.
  exports: [GAMMA_ASSET_CHECK, ApplicationsService, SessionsService, AssetsService, PortraitUploadsService],
})
export class VerificationModule {}
