import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/bootstrap';
import { AppConfig, loadConfig } from '../src/config/app-config';
import { GatewayExpressAdapter } from '../src/http/gateway-express-adapter';
import { ChannelEntity, ChannelSettings } from '../src/upstream/channel.entity';
import { ChannelsService } from '../src/upstream/channels.service';
import { startBenchUpstream } from './upstream-process';

export interface BenchGateway {
  app: INestApplication;
  config: AppConfig;
  url: string;
  upstreamUrl: string;
  /** The family A channel (model alpha/v6) pointing at the bench upstream. */
  channel: ChannelEntity;
  stop(): Promise<void>;
}

/**
 * The gateway the benchmarks measure: the real AppModule on a fresh SQLite file (or the given
 * database), quiet logs, listening on loopback, with the lean upstream in its own process.
 */
export async function startBenchGateway(
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
  channelSettings?: ChannelSettings,
): Promise<BenchGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const config = loadConfig({
    DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'bench.sqlite')}`,
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    SIMULATOR: 'off',
    MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...env,
  });
  const upstream = await startBenchUpstream();
  const app = await NestFactory.create(AppModule.forRoot(config), new GatewayExpressAdapter(), { bodyParser: false, logger: false });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const channel = await app
    .get(ChannelsService)
    .create(
      { name: 'bench', platform: 'alpha', baseUrl: upstream.url, apiKey: 'bench', models: ['alpha/v6'], settings: channelSettings },
      true,
    );
  return {
    app,
    config,
    url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
    upstreamUrl: upstream.url,
    channel,
    async stop() {
      await app.close();
      upstream.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
