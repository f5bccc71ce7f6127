import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { UsersService } from '../auth/users.service';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import { DeliveryRecord, WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { WebhookEnqueueRepository } from './webhook-enqueue.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WEBHOOK_EVENT_TYPES, WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { newEndpointId } from './webhook-ids';
import { newEndpointRow } from './new-endpoint-row';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secret-box';

/** Endpoints an account may have. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;

/**
 * An account's endpoints: register (the secret shown once), list, remove, test, their deliveries, resend, enable again.
 * Why 9 constructor dependencies: the attempts' repositories are split by job, and this service both lists an
 * endpoint's attempts and queues a test or a resend (two of them), besides the endpoints, the delivery job and the secrets.
 */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryLogRepository,
    private readonly enqueue: WebhookEnqueueRepository,
    private readonly delivery: WebhookDeliveryService,
    private readonly secrets: WebhookSecretBox,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * Registers `url` (http(s), public unless MEDIA_ALLOW_PRIVATE_HOSTS); returns the endpoint and its
   * secret, which is never shown again. The account's row is locked while its endpoints are counted
   * and the new one written, so the limit holds however many instances create at once.
   */
  async create(userId: number, url: string, events: string[] | undefined): Promise<{ endpoint: WebhookEndpointEntity; secret: string }> {
    const parsed = await assertPublicHttpUrl(url, 'url', this.config.mediaAllowPrivateHosts);
    if (parsed.username || parsed.password) throw AppError.invalid('url must not contain credentials', 'url');
    const secret = newWebhookSecret();
    const secretEncrypted = this.secrets.seal(secret);
    const now = this.clock.now();
    const endpoint = await this.transactions.run(async (manager) => {
      await this.users.lockInTransaction(manager, userId);
      if ((await this.endpoints.countOf(manager, userId)) >= MAX_ENDPOINTS_PER_ACCOUNT) {
        throw AppError.invalid(`an account may have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints`, 'url');
      }
      return this.endpoints.insert(
        manager,
        newEndpointRow({
          endpointId: newEndpointId(),
          userId,
          kind: 'endpoint',
          url: parsed.toString(),
          events: events ? [...new Set(events)] : [...WEBHOOK_EVENT_TYPES],
          secretEncrypted,
          now,
        }),
      );
    });
    return { endpoint, secret };
  }

  list(userId: number): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.listOf(userId);
  }

  async delete(userId: number, endpointId: string): Promise<void> {
    await this.endpoints.delete(await this.endpoints.owned(userId, endpointId));
  }

  async deliveriesOf(userId: number, endpointId: string): Promise<DeliveryRecord[]> {
    const endpoint = await this.endpoints.owned(userId, endpointId);
    return this.deliveries.listFor(endpoint.id);
  }

  /**
   * Sends a `webhook.test` event to the endpoint now (once, no retries) and answers with that
   * attempt; a 429 with Retry-After when the endpoint already has its limit of attempts in flight here.
   */
  async test(userId: number, endpointId: string): Promise<DeliveryRecord> {
    const endpoint = await this.endpoints.owned(userId, endpointId);
    const data = { object: 'webhook_endpoint', id: endpoint.endpointId, url: endpoint.url };
    const sent = await this.delivery.sendOnce(endpoint.id, (owner, leaseUntil) =>
      this.enqueue.enqueueLeased({ userId, type: 'webhook.test', data }, endpoint.id, owner, this.clock.now(), leaseUntil),
    );
    const attempt = await this.deliveries.recordOf(sent.id);
    if (!attempt) throw AppError.notFound(`webhook endpoint ${endpointId} not found`);
    return attempt;
  }

  /** Sends one of the endpoint's events again now. */
  async resend(userId: number, endpointId: string, deliveryId: string): Promise<void> {
    const endpoint = await this.endpoints.owned(userId, endpointId);
    if (endpoint.status !== 'enabled') throw new AppError(ErrorCode.Conflict, 'the endpoint is disabled: enable it first');
    const queued = await this.enqueue.resend(endpoint.id, deliveryId, this.clock.now());
    if (!queued) throw AppError.notFound(`delivery ${deliveryId} not found`);
  }

  /** A disabled endpoint takes events again (from now on). */
  async enable(userId: number, endpointId: string): Promise<WebhookEndpointEntity> {
    return this.endpoints.enable(await this.endpoints.owned(userId, endpointId), this.clock.now());
  }
}
