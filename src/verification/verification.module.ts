import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from '../auth/user.entity';
import { GammaUpstreamModule } from '../families/gamma/gamma-family.module';
import { AdminApplicationsController } from './admin-applications.controller';
import { ApplicationsController } from './applications.controller';
import { ApplicationsService } from './applications.service';
import { AssetFollowUpService } from './asset-follow-up.service';
import { AssetReferenceInterceptor } from './asset-reference.interceptor';
import { AssetReferencesService } from './asset-references.service';
import { AssetRepository } from './asset-repository';
import { AssetsController } from './assets.controller';
import { AssetsService } from './assets.service';
import { CallbackController } from './callback.controller';
import { CallbackService } from './callback.service';
import { VerificationApplicationEntity } from './entities/verification-application.entity';
import { VerificationAssetEntity } from './entities/verification-asset.entity';
import { VerificationGroupEntity } from './entities/verification-group.entity';
import { VerificationSessionEntity } from './entities/verification-session.entity';
import { GammaSubmitService } from '../families/gamma/gamma-drafts.service';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { VerificationAccessGuard } from './verification-access.guard';
import { VerificationChannels } from './verification-channels.service';

/** Real-person verification: applications, sessions, callback, groups, assets; and family C submits. */
@Module({
  imports: [
    TypeOrmModule.forFeature([VerificationApplicationEntity, VerificationSessionEntity, VerificationGroupEntity, VerificationAssetEntity, UserEntity]),
    GammaUpstreamModule,
  ],
  controllers: [ApplicationsController, AdminApplicationsController, SessionsController, CallbackController, AssetsController],
  providers: [
    ApplicationsService,
    SessionsService,
    CallbackService,
    AssetsService,
    AssetRepository,
    AssetReferencesService,
    AssetFollowUpService,
    VerificationChannels,
    VerificationAccessGuard,
    GammaSubmitService,
    { provide: APP_INTERCEPTOR, useClass: AssetReferenceInterceptor },
  ],
  // ApplicationsService, SessionsService, AssetsService: the web console's verification page uses them too.
  exports: [GammaSubmitService, ApplicationsService, SessionsService, AssetsService],
})
export class VerificationModule {}
