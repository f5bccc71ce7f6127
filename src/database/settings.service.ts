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

  async set(key: string, value: string): Promise<void> {
    await this.transactions.run((manager) => manager.save(SettingEntity, { key, value }));
  }
}
