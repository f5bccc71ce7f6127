import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { JobsModule } from '../jobs/jobs.module';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { TaskCallbackEntity } from './task-callback.entity';
import { TaskCallbackRepository } from './task-callback.repository';
import { WebhookCallbacksService } from './webhook-callbacks.service';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEnqueueRepository } from './webhook-enqueue.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookEventEntity } from './webhook-event.entity';
import { WebhookDeliveryScheduler } from './webhook-delivery-scheduler';
import { WebhookEventBuilder } from './webhook-event-builder';
import { WebhookEventPublisher } from './webhook-event-publisher';
import { WebhookMetrics } from './webhook-metrics.service';
import { WebhookOutboxEntity } from './webhook-outbox.entity';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WebhookSecretBox } from './webhook-secret-box';
import { WebhookSecretsReseal } from './webhook-secrets-reseal';
import { WebhookSender } from './webhook-sender';
import { WebhookSweepRepository } from './webhook-sweep.repository';
import { WebhookWakeUp } from './webhook-wake-up';
import { WebhooksController } from './webhooks.controller';
import { WebhookHousekeeping } from './webhook-housekeeping';

/**
 * Webhooks: endpoints per account on /v1/webhooks, the publisher that turns task ends into events
 * (from the `webhook_outbox` entries this module writes through the tasks module's TaskEndHooks, so
 * tasks never import webhooks), and the delivery job.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookEventEntity, WebhookDeliveryEntity, WebhookOutboxEntity, TaskCallbackEntity]),
    AuthModule,
    TasksModule,
    StorageModule,
    JobsModule,
    MetricsRegistryModule,
    HousekeepingModule,
  ],
  controllers: [WebhooksController],
  providers: [
    WebhookEndpointRepository,
    WebhookEnqueueRepository,
    WebhookDeliveryRepository,
    WebhookDeliveryLogRepository,
    WebhookSweepRepository,
    WebhookOutboxRepository,
    TaskCallbackRepository,
    WebhookSecretBox,
    WebhookSecretsReseal,
    WebhookSender,
    WebhookMetrics,
    WebhookWakeUp,
    WebhookEventBuilder,
    WebhookDeliveryScheduler,
    WebhookEventPublisher,
    WebhookDeliveryService,
    WebhookEndpointsService,
    WebhookCallbacksService,
    WebhookHousekeeping,
  ],
  exports: [
    WebhookEndpointsService,
    WebhookCallbacksService,
    WebhookEndpointRepository,
    WebhookDeliveryLogRepository,
    WebhookSweepRepository,
    WebhookOutboxRepository,
    TaskCallbackRepository,
  ],
})
export class WebhooksModule {}
