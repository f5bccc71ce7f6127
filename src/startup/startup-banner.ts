import type { AppConfig } from '../config/app-config';
import type { SeedResult } from '../simulator/simulator-seeder.service';
import { describeVideoStore } from './check-video-store';

export interface StartupFacts {
  config: AppConfig;
  /** The port the server really listens on. */
  port: number;
  seed: SeedResult;
  /** The admin token generated on this start, if one was. */
  generatedAdminToken: string | null;
  /** The MySQL database did not exist and was created on this start. */
  createdDatabase?: boolean;
}

/** Where the data lives, without a password: `SQLite data/gateway.sqlite`, `MySQL root@127.0.0.1:3306/test`, `PostgreSQL ...`. */
export function describeDatabase(config: AppConfig): string {
  if (config.database.kind === 'sqlite') return `SQLite ${config.database.path}`;
  const url = new URL(config.database.url);
  const product = config.database.kind === 'postgres' ? 'PostgreSQL' : 'MySQL';
  return `${product} ${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
}

/** Where instances share limits and revocations, without a password: `Redis 127.0.0.1:6379/0`, or `in process`. */
export function describeSharedState(config: AppConfig): string {
  if (!config.redisUrl) return 'in process (no REDIS_URL: rate limits and key revocations are per instance)';
  const url = new URL(config.redisUrl);
  return `Redis ${url.host}${url.pathname.length > 1 ? url.pathname : ''} (prefix ${config.redisKeyPrefix})`;
}

/**
 * The few lines a start prints at `info`: what it listens on, where the console and the API docs
 * are, the database, the simulator; then, framed, the secrets that are shown only this once.
 */
export function startupBanner({ config, port, seed, generatedAdminToken, createdDatabase }: StartupFacts): string[] {
  const base = config.publicBaseUrl;
  const lines = [
    `Video gateway listening on port ${port}: ${base}`,
    `  console    ${base}/console`,
    `  API docs   ${base}/docs`,
    `  database   ${describeDatabase(config)}${createdDatabase ? ' (created now: it did not exist)' : ''}`,
    `  shared     ${describeSharedState(config)}`,
    `  videos     ${describeVideoStore(config)}`,
    seed.root
      ? `  simulator  on: fake providers at ${seed.root} (sample media: ${base}/simulator/media/sample.png, .mp4)`
      : '  simulator  off',
  ];
  if (config.adminToken) lines.push('  admin      ADMIN_TOKEN from the environment (this run only; without it the stored token applies)');
  return [...lines, ...credentialsBlock(generatedAdminToken, seed, base)];
}

/** The one-time secrets in a frame, so they cannot be missed; nothing when there are none. */
export function credentialsBlock(generatedAdminToken: string | null, seed: SeedResult, baseUrl: string): string[] {
  const rows: Array<[string, string]> = [];
  if (generatedAdminToken) rows.push(['ADMIN_TOKEN', generatedAdminToken]);
  if (seed.demo) {
    rows.push(['demo API key', seed.demo.apiKey]);
    rows.push(['demo console login', `${seed.demo.username} / ${seed.demo.password}`]);
  }
  if (rows.length === 0) return [];
  const title = 'Shown once, now: copy them (only hashes are stored)';
  const label = Math.max(...rows.map(([name]) => name.length));
  const body = rows.map(([name, value]) => `${name.padEnd(label)}  ${value}`);
  if (seed.demo) body.push(`(the demo user has ${seed.demo.quota.toLocaleString('en-US')} quota units and verification enabled)`);
  const width = Math.max(title.length, ...body.map((line) => line.length));
  const edge = `+${'-'.repeat(width + 2)}+`;
  // Ready to paste for the README's curl walk-through (the password is URL-safe: no quoting needed).
  const exports =
    generatedAdminToken && seed.demo
      ? [`export GW=${baseUrl} ADMIN=${generatedAdminToken} KEY=${seed.demo.apiKey} PASS=${seed.demo.password}`]
      : [];
  return [edge, `| ${title.padEnd(width)} |`, edge, ...body.map((line) => `| ${line.padEnd(width)} |`), edge, ...exports];
}
