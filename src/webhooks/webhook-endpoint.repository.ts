import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, Not, Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { TransactionRunner } from '../database/transaction-runner';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** Endpoints, always scoped to their account: another account's are simply not found. */
@Injectable()
export class WebhookEndpointRepository {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Inside the caller's transaction (which holds the account's lock). */
  insert(manager: EntityManager, endpoint: Omit<WebhookEndpointEntity, 'id'>): Promise<WebhookEndpointEntity> {
    return manager.save(manager.create(WebhookEndpointEntity, endpoint));
  }

  listOf(userId: number): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({ where: { userId, kind: 'endpoint' }, order: { id: 'ASC' } });
  }

  /** Inside the caller's transaction, which holds the account's lock: no other create counts meanwhile. */
  countOf(manager: EntityManager, userId: number): Promise<number> {
    return manager.count(WebhookEndpointEntity, { where: { userId, kind: 'endpoint' } });
  }

  async owned(userId: number, endpointId: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findOne({ where: { userId, endpointId, kind: 'endpoint' } });
    if (!endpoint) throw AppError.notFound(`webhook endpoint ${endpointId} not found`);
    return endpoint;
  }

  /** The enabled endpoints of these accounts, with what choosing an event's targets needs. */
  enabledOf(userIds: number[]): Promise<Array<Pick<WebhookEndpointEntity, 'id' | 'userId' | 'events' | 'createdAt'>>> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.endpoints.find({
      where: { userId: In(userIds), status: 'enabled', kind: 'endpoint' },
      select: { id: true, userId: true, events: true, createdAt: true },
    });
  }

  /** The account's callback secret row (kind `callback`), or null when it has none yet. */
  callbackOf(userId: number, manager?: EntityManager): Promise<WebhookEndpointEntity | null> {
    return (manager?.getRepository(WebhookEndpointEntity) ?? this.endpoints).findOne({ where: { userId, kind: 'callback' } });
  }

  /** The callback rows of these accounts (row id by account): where their tasks' callbacks are signed. */
  async callbacksOf(userIds: number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.endpoints.find({ where: { userId: In(userIds), kind: 'callback' }, select: { id: true, userId: true } });
    return new Map(rows.map((row) => [row.userId, row.id]));
  }

  /** Inside the caller's transaction (which holds the account's lock): a new sealed secret for the callback row. */
  async replaceCallbackSecret(manager: EntityManager, id: number, secretEncrypted: string, now: number): Promise<void> {
    await manager.update(WebhookEndpointEntity, { id, kind: 'callback' }, { secretEncrypted, updatedAt: now });
  }

  /** Removes the endpoint and its deliveries (nothing more is sent to it). */
  async delete(endpoint: WebhookEndpointEntity): Promise<void> {
    await this.transactions.run(async (manager) => {
      await manager.delete(WebhookDeliveryEntity, { endpointId: endpoint.id });
      await manager.delete(WebhookEndpointEntity, { id: endpoint.id });
    });
  }

  /** A disabled endpoint is enabled again (the customer fixed it); its failure streak starts over. */
  async enable(endpoint: WebhookEndpointEntity, now: number): Promise<WebhookEndpointEntity> {
    const changes = { status: 'enabled' as const, failingSince: null, disabledAt: null, updatedAt: now };
    await this.transactions.runStatement((manager) => manager.update(WebhookEndpointEntity, { id: endpoint.id }, changes));
    return Object.assign(endpoint, changes);
  }

  /** Every endpoint's sealed secret (a rotation of the server secret seals them again). */
  sealedSecrets(): Promise<Array<Pick<WebhookEndpointEntity, 'id' | 'secretEncrypted'>>> {
    return this.endpoints.find({ select: { id: true, secretEncrypted: true }, order: { id: 'ASC' } });
  }

  /** Compare-and-set, so two instances re-sealing at once keep one valid value; answers the rows changed. */
  async replaceSealedSecret(id: number, from: string, to: string): Promise<number> {
    const result = await this.transactions.runStatement((manager) =>
      manager.update(WebhookEndpointEntity, { id, secretEncrypted: from }, { secretEncrypted: to }),
    );
    return result.affected ?? 0;
  }

  /** How many endpoints are failing now (disabled, or their last attempts failed). */
  countFailing(): Promise<number> {
    return this.endpoints.count({ where: [{ status: 'disabled' }, { failingSince: Not(IsNull()) }] });
  }

  /** Endpoints failing now (disabled, or their last attempts failed), the longest failing first: the admins' view. */
  failing(limit = 200): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({
      where: [{ status: 'disabled' }, { failingSince: Not(IsNull()) }],
      order: { failingSince: 'ASC' },
      take: limit,
    });
  }
}
