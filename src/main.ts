import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';
import { SimulatorSeeder } from './simulator/simulator-seeder.service';

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
  const app = await NestFactory.create(AppModule.forRoot(config), { bodyParser: false });
  configureApp(app, config);
  await app.listen(config.port);
  const address = app.getHttpServer().address();
  await app.get(SimulatorSeeder).seed(typeof address === 'object' && address ? address.port : config.port);
  process.stdout.write(`Video gateway listening on ${config.publicBaseUrl} (docs: ${config.publicBaseUrl}/docs)\n`);
}

void main();
