import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { ConsoleSessions1763900000700 } from './1763900000700-console-sessions';
import { Verification1763900000800 } from './1763900000800-verification';
import { IdentifierCollation1764000000100 } from './1764000000100-identifier-collation';
import { VideoArchive1764100000300 } from './1764100000300-video-archive';
import { SimulatorRecords1764200000400 } from './1764200000400-simulator-records';
import { Webhooks1764300000130 } from './1764300000130-webhooks';
import { UserRpm1764300000600 } from './1764300000600-user-rpm';
import { TaskEndEvents1764300000700 } from './1764300000700-task-end-events';
import { TaskEvents1764400000100 } from './1764400000100-task-events';
import { UpstreamCallStats1764400000200 } from './1764400000200-upstream-call-stats';
import { PortraitUploads1764400000300 } from './1764400000300-portrait-uploads';
import { TaskGatewayHops1764500000100 } from './1764500000100-task-gateway-hops';
import { SealedProviderKeys1764500000200 } from './1764500000200-sealed-provider-keys';
import { OwnTables1764600000300 } from './1764600000300-own-tables';
import { TaskCallbacks1764700000200 } from './1764700000200-task-callbacks';
import { ApiKeyLimits1764700000300 } from './1764700000300-api-key-limits';
import { RetentionIndexes1764700000400 } from './1764700000400-retention-indexes';
import { DeliveryEventIndex1764700000500 } from './1764700000500-delivery-event-index';
import { TaskCancelSent1764800000100 } from './1764800000100-task-cancel-sent';
import { ModelCatalog1764900000100 } from './1764900000100-model-catalog';
import { ProviderUsageOutputExpiry1765000000100 } from './1765000000100-provider-usage-output-expiry';
import { TaskProviderRetries1765100000100 } from './1765100000100-task-provider-retries';
import { TaskRouteRequest1765200000100 } from './1765200000100-task-route-request';
import { TaskProviderUsage1765300000100 } from './1765300000100-task-provider-usage';
import { DeliveredBilling1765400000100 } from './1765400000100-delivered-billing';
import { SettledBefore1765400000200 } from './1765400000200-settled-before';
import { RedemptionCodes1765500000100 } from './1765500000100-redemption-codes';
import { CatalogAliases1765600000100 } from './1765600000100-catalog-aliases';

/** Every migration, in order. Add new ones at the end. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  ConsoleSessions1763900000700,
  Verification1763900000800,
  IdentifierCollation1764000000100,
  VideoArchive1764100000300,
  SimulatorRecords1764200000400,
  Webhooks1764300000130,
  UserRpm1764300000600,
  TaskEndEvents1764300000700,
  TaskEvents1764400000100,
  UpstreamCallStats1764400000200,
  PortraitUploads1764400000300,
  TaskGatewayHops1764500000100,
  SealedProviderKeys1764500000200,
  OwnTables1764600000300,
  TaskCallbacks1764700000200,
  ApiKeyLimits1764700000300,
  RetentionIndexes1764700000400,
  DeliveryEventIndex1764700000500,
  TaskCancelSent1764800000100,
  ModelCatalog1764900000100,
  ProviderUsageOutputExpiry1765000000100,
  TaskProviderRetries1765100000100,
  TaskRouteRequest1765200000100,
  TaskProviderUsage1765300000100,
  DeliveredBilling1765400000100,
  SettledBefore1765400000200,
  RedemptionCodes1765500000100,
  CatalogAliases1765600000100,
];
