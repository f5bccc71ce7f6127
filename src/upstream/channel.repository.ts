import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { changedRows } from '../database/lean-writes';
import { TransactionRunner } from '../database/transaction-runner';
import { ChannelEntity, Platform } from './channel.entity';

// A channel's statistics, written once each (see lean-writes.ts).
const ADD_REQUESTS_SQL = 'UPDATE channels SET request_count = request_count + ? WHERE id = ?';
const COUNT_ERROR_SQL = 'UPDATE channels SET request_count = request_count + 1, error_count = error_count + 1, last_error = ? WHERE id = ?';

/**
 * The channels (`channels`, which only UpstreamModule reads and writes) as stored: their provider
 * secrets sealed (ChannelSecretBox opens and seals them; this repository never sees them plain).
 */
@Injectable()
export class ChannelRepository {
  constructor(
    @InjectRepository(ChannelEntity) private readonly channels: Repository<ChannelEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  insert(channel: Omit<ChannelEntity, 'id'>): Promise<ChannelEntity> {
    return this.transactions.run((manager) => manager.save(manager.create(ChannelEntity, channel)));
  }

  async update(id: number, changes: Partial<ChannelEntity>): Promise<void> {
    await this.transactions.run((manager) => manager.update(ChannelEntity, { id }, changes as QueryDeepPartialEntity<ChannelEntity>));
  }

  findById(id: number): Promise<ChannelEntity | null> {
    return this.channels.findOne({ where: { id } });
  }

  /** Every channel, by id. */
  list(): Promise<ChannelEntity[]> {
    return this.channels.find({ order: { id: 'ASC' } });
  }

  /** Every channel's id, in order. */
  async ids(): Promise<number[]> {
    return (await this.channels.find({ select: { id: true }, order: { id: 'ASC' } })).map((channel) => channel.id);
  }

  count(): Promise<number> {
    return this.channels.count();
  }

  /** The enabled channels of `platforms`, by id. */
  enabledOn(platforms: Platform[]): Promise<ChannelEntity[]> {
    return this.channels.find({ where: { platform: In(platforms), status: 'enabled' }, order: { id: 'ASC' } });
  }

  /** Every channel's secrets as stored (and its platform, which says which settings are secret), by id. */
  listSecrets(): Promise<Array<Pick<ChannelEntity, 'id' | 'platform' | 'apiKey' | 'settings'>>> {
    return this.channels.find({ select: { id: true, platform: true, apiKey: true, settings: true }, order: { id: 'ASC' } });
  }

  /** Writes a channel's secrets sealed anew (after a rotation of the server secret). */
  async updateSecrets(id: number, sealed: Pick<ChannelEntity, 'apiKey' | 'settings'>): Promise<void> {
    await this.transactions.run((manager) =>
      manager.update(ChannelEntity, { id }, { apiKey: sealed.apiKey, settings: sealed.settings } as QueryDeepPartialEntity<ChannelEntity>),
    );
  }

  /** Adds `requests` accepted calls to the channel's count. */
  async addRequests(id: number, requests: number): Promise<void> {
    await this.transactions.runStatement((manager) => changedRows(manager, ADD_REQUESTS_SQL, [requests, id]));
  }

  /** A failed call: counted, with its (sanitized) error. */
  async recordError(id: number, error: string): Promise<void> {
    await this.transactions.runStatement((manager) => changedRows(manager, COUNT_ERROR_SQL, [error, id]));
  }
}
