import { toUnixSeconds } from '../common/runtime/clock';
import type {
  AdminFailingEndpointDto,
  ConsoleWebhookEndpointDto,
  CreatedWebhookEndpointDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
} from './dto/webhook.dto';
import type { CallbackSecretStateDto } from './dto/callback.dto';
import type { CallbackSecretState } from './webhook-callbacks.service';
import type { WebhookDeliveryEntity } from './webhook-delivery.entity';
import type { DeliveryRecord } from './webhook-delivery-log.repository';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';

const seconds = (ms: number | null): number | null => (ms === null ? null : toUnixSeconds(ms));

export function toEndpointView(endpoint: WebhookEndpointEntity): WebhookEndpointDto {
  return {
    id: endpoint.endpointId,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    created_at: toUnixSeconds(endpoint.createdAt),
  };
}

export const toCreatedEndpointView = (endpoint: WebhookEndpointEntity, secret: string): CreatedWebhookEndpointDto => ({
  ...toEndpointView(endpoint),
  secret,
});

export function toDeliveryView(delivery: DeliveryRecord): WebhookDeliveryDto {
  return {
    id: delivery.deliveryId,
    event_id: delivery.publicEventId,
    type: delivery.type,
    task_id: delivery.taskId,
    attempt: delivery.attempt,
    status_code: delivery.statusCode,
    error: delivery.error,
    created_at: toUnixSeconds(delivery.attemptedAt ?? delivery.createdAt),
    next_attempt_at: seconds(delivery.nextAttemptAt),
    delivered_at: seconds(delivery.deliveredAt),
  };
}

/** The console's view: also whether (since when) it is failing. */
export function toConsoleEndpointView(endpoint: WebhookEndpointEntity): ConsoleWebhookEndpointDto {
  return {
    ...toEndpointView(endpoint),
    failing_since: seconds(endpoint.failingSince),
    disabled_at: seconds(endpoint.disabledAt),
    last_success_at: seconds(endpoint.lastSuccessAt),
  };
}

export function toFailingEndpointView(
  endpoint: WebhookEndpointEntity,
  lastFailure: WebhookDeliveryEntity | undefined,
): AdminFailingEndpointDto {
  return {
    ...toConsoleEndpointView(endpoint),
    user_id: endpoint.userId,
    last_status_code: lastFailure?.statusCode ?? null,
    last_error: lastFailure?.error ?? null,
    last_attempt_at: seconds(lastFailure?.attemptedAt ?? null),
  };
}

export const toCallbackSecretStateView = (state: CallbackSecretState): CallbackSecretStateDto => ({
  set: state.set,
  created_at: seconds(state.createdAt),
  rotated_at: seconds(state.rotatedAt),
});
