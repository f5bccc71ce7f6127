import 'reflect-metadata';
import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';
import { SimulatorSeeder } from './simulator/simulator-seeder.service';

const SEVERITY: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Maps LOG_LEVEL (pino's names) onto Nest's logger levels. */
function nestLogLevels(level: string): LogLevel[] | false {
  if (level === 'silent') return false;
  const cut = { fatal: 1, error: 2, warn: 3, info: 4, debug: 5, trace: 6 }[level] ?? 4;
  return SEVERITY.slice(0, cut);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.create(AppModule.forRoot(config), { bodyParser: false, logger: nestLogLevels(config.logLevel) });
  configureApp(app, config);
  await app.listen(config.port);
  const address = app.getHttpServer().address();
  await app.get(SimulatorSeeder).seed(typeof address === 'object' && address ? address.port : config.port);
  process.stdout.write(`Video gateway listening on ${config.publicBaseUrl} (docs: ${config.publicBaseUrl}/docs)\n`);
}

void main();
