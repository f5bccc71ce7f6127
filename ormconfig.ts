import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';

/** The data source the TypeORM CLI uses (`npm run migration:run`); same options as the app. */
export default new DataSource(buildDataSourceOptions(loadConfig(process.env).database));
