import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';
import { newDataSource } from './src/database/sqlite-data-source';

const options = buildDataSourceOptions(loadConfig(process.env).database);

/** The data source the TypeORM CLI uses (`npm run migration:run`); same options as the app (PostgreSQL: its `?`-numbering driver). */
export default options.type === 'postgres' ? newDataSource(options) : new DataSource(options);
