import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SettingEntity } from './setting.entity';
import { TransactionRunner } from './transaction-runner';

@Injectable()
export class SettingsService {
  constructor(
    @InjectRepository(SettingEntity) private readonly settings: Repository<SettingEntity>,
    private readonly transactions: TransactionRunner,
  ) {}

  async get(key: string): Promise<string | null> {
    return (await this.settings.findOne({ where: { key } }))?.value ?? null;
  }

  /** Stores `value` unless the key already has one; answers the value that is stored afterwards. */
  async setIfAbsent(key: string, value: string): Promise<string> {
    await this.transactions.run((manager) =>
      manager.createQueryBuilder().insert().into(SettingEntity).values({ key, value }).orIgnore().execute(),
    );
    return (await this.get(key)) ?? value;
  }

  async delete(key: string): Promise<void> {
    await this.transactions.run((manager) => manager.delete(SettingEntity, { key }));
  }

  async set(key: string, value: string): Promise<void> {
    await this.transactions.run((manager) => manager.save(SettingEntity, { key, value }));
  }
}
