import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { LeanReads } from './lean-reads';
import { SettingEntity } from './setting.entity';
import { ServerSecret } from './server-secret.service';
import { SettingsService } from './settings.service';
import { newDataSource } from './sqlite-data-source';
import { TransactionRunner } from './transaction-runner';

/** The data source, migrated at start (never synchronized), plus the transaction runner and the hot paths' lean reads. */
// Global: the one data source every repository and transaction of every module runs on (on SQLite: one writer connection, one for reads).
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // autoLoadEntities: the entities every module registers with TypeOrmModule.forFeature.
          useFactory: () => ({
            ...buildDataSourceOptions(config.database, config.databaseQueryTimeoutMs, config.databasePoolSize),
            autoLoadEntities: true,
          }),
          dataSourceFactory: async (options) => {
            await migrate(config);
            return newDataSource(options!).initialize();
          },
        }),
        TypeOrmModule.forFeature([SettingEntity]),
      ],
      providers: [TransactionRunner, LeanReads, SettingsService, ServerSecret],
      exports: [TransactionRunner, LeanReads, SettingsService, ServerSecret],
    };
  }
}

/** Migrations run on a connection of their own without the query timeout: DDL on a big table may take long. */
async function migrate(config: AppConfig): Promise<void> {
  const options = buildDataSourceOptions(config.database);
  // PostgreSQL needs its driver for the migrations' `?` placeholders; SQLite and MySQL migrate on TypeORM's own.
  const dataSource = await (options.type === 'postgres' ? newDataSource(options) : new DataSource(options)).initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}
