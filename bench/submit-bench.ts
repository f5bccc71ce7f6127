/**
 * Submit benchmark: POST /v1/videos (family A text-to-video: validate, price, charge and record,
 * call the upstream, mark submitted) under concurrent load, side by side with GET /health (the
 * framework's floor on the same server) as the baseline. The load comes from its own process.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { UsersService } from '../src/auth/users.service';
import { LedgerService } from '../src/billing/ledger.service';
import { configureApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/app-config';
import { ChannelsService } from '../src/upstream/channels.service';
import { startBenchUpstream } from './upstream-process';

export interface LoadResult {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

export interface SubmitBenchResult {
  database: string;
  concurrency: number;
  health: LoadResult;
  submit: LoadResult;
}

function load(spec: object): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, 'load-client.ts'), JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exited ${code}`))));
  });
}

export async function runSubmitBench(databaseUrl?: string, concurrency = 16, durationMs = 8000): Promise<SubmitBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const config = loadConfig({
    DATABASE_URL: databaseUrl ?? `sqlite:${join(dir, 'bench.sqlite')}`,
    ADMIN_TOKEN: 'bench-admin-token-0123456789',
    SIMULATOR: 'off',
    TASK_SYNC_INTERVAL_MS: '0',
    MEDIA_ALLOW_PRIVATE_HOSTS: 'true',
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  const upstream = await startBenchUpstream();
  const app = await NestFactory.create(AppModule.forRoot(config), { bodyParser: false, logger: false });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  try {
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    await app.get(ChannelsService).create({ name: 'bench', platform: 'alpha', baseUrl: upstream.url, apiKey: 'bench', models: ['alpha/v6'] }, true);
    const user = await app.get(UsersService).create({ username: 'bench' });
    await app.get(LedgerService).topUp(user.id, 1_000_000_000_000);
    const { key } = await app.get(ApiKeysService).issue(user.id, 'bench');
    const health = await load({ url: `${base}/health`, method: 'GET', headers: {}, concurrency, durationMs });
    const submit = await load({
      url: `${base}/v1/videos`,
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/v6', prompt: 'a lighthouse at dusk', duration: 5, resolution: '720P' }),
      concurrency,
      durationMs,
    });
    return { database: config.database.kind, concurrency, health, submit };
  } finally {
    await app.close();
    upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
