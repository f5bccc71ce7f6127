/**
 * Submit benchmark: POST /v1/videos (family A text-to-video: validate, price, charge and record,
 * call the upstream, mark submitted) under concurrent load, side by side with GET /health (the
 * framework's floor on the same server) as the baseline. The load comes from its own process.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { UsersService } from '../src/auth/users.service';
import { LedgerService } from '../src/billing/ledger.service';
import { startBenchGateway } from './bench-gateway';

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
  const gateway = await startBenchGateway(databaseUrl, { TASK_SYNC_INTERVAL_MS: '0' });
  const { app, config, url: base } = gateway;
  try {
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
    await gateway.stop();
  }
}
