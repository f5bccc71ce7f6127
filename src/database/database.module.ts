import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { SettingEntity } from './setting.entity';
import { SettingsService } from './settings.service';
import { TransactionRunner } from './transaction-runner';

/** The data source, migrated at start (never synchronized), plus the transaction runner. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({ ...buildDataSourceOptions(config.database), migrationsRun: true, migrationsTransactionMode: 'each' }),
        TypeOrmModule.forFeature([SettingEntity]),
      ],
      providers: [TransactionRunner, SettingsService],
      exports: [TransactionRunner, SettingsService],
    };
  }
}
