import { ApiKeyEntity } from '../auth/api-key.entity';
import { UserEntity } from '../auth/user.entity';
import { GroupRatioEntity } from '../billing/group-ratio.entity';
import { LogEntity } from '../billing/log.entity';
import { PriceRuleEntity } from '../billing/price-rule.entity';
import { TaskEntity } from '../tasks/task.entity';
import { TaskEventEntity } from '../tasks/task-event.entity';
import { ChannelEntity } from '../upstream/channel.entity';
import { UpstreamCallStatsEntity } from '../upstream/upstream-call-stats.entity';
import { ConsoleSessionEntity } from '../console/console-session.entity';
import { SettingEntity } from './setting.entity';
import { SimulatorRecordEntity } from '../families/simulator-shared/simulator-record.entity';
import { VerificationApplicationEntity } from '../verification/entities/verification-application.entity';
import { VerificationAssetEntity } from '../verification/entities/verification-asset.entity';
import { VerificationGroupEntity } from '../verification/entities/verification-group.entity';
import { VerificationSessionEntity } from '../verification/entities/verification-session.entity';
import { PortraitUploadEntity } from '../verification/entities/portrait-upload.entity';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../webhooks/webhook-endpoint.entity';
import { WebhookEventEntity } from '../webhooks/webhook-event.entity';

/** Every entity; modules add theirs here so one data source (app and CLI) knows them all. */
export const ENTITIES = [
  UserEntity,
  ApiKeyEntity,
  ChannelEntity,
  PriceRuleEntity,
  GroupRatioEntity,
  LogEntity,
  TaskEntity,
  TaskEventEntity,
  SettingEntity,
  ConsoleSessionEntity,
  VerificationApplicationEntity,
  VerificationSessionEntity,
  VerificationGroupEntity,
  VerificationAssetEntity,
  SimulatorRecordEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  UpstreamCallStatsEntity,
  PortraitUploadEntity,
];
