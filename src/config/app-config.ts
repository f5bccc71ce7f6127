import { z } from 'zod';
import { parseVideoStoreTarget, VideoStoreTarget } from './video-store-target';
import { catalogFeedConfig, CatalogFeedConfig, catalogFeedInterval, catalogFeedPublicKey, catalogFeedUrl } from './catalog-feed-env';
import { parseDuration } from './duration';
import { SecretEnvProblem, secretFromEnv } from './server-secret-env';
import { TrustedProxies, trustedProxies } from './trusted-proxies';

const booleanFlag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const normalized = value.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
      if (['false', '0', 'no', 'off'].includes(normalized)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });

const integer = (min: number, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
        ctx.addIssue({
          code: 'custom',
          message: max === Number.MAX_SAFE_INTEGER ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`,
        });
        return z.NEVER;
      }
      return Number(value);
    });

/** Browsers and providers are sent here (verification callback, H5 and content links): http(s) only. */
const publicBaseUrl = z
  .string()
  .optional()
  .refine((value) => {
    if (value === undefined) return true;
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL without query or fragment');

/** Where OTLP/HTTP traces go (`<endpoint>/v1/traces`); empty or unset: no tracing at all. */
const otlpEndpoint = z
  .string()
  .optional()
  .refine((value) => {
    if (!value) return true;
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL (the OTLP/HTTP collector, e.g. http://localhost:4318)');

const databaseUrl = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const url = value && value.length > 0 ? value : 'sqlite:data/gateway.sqlite';
    if (url.startsWith('sqlite:')) {
      const path = url.slice('sqlite:'.length);
      if (!path) ctx.addIssue({ code: 'custom', message: 'sqlite: needs a file path' });
      // Migrations run on a connection of their own, so an in-memory database would lose its schema.
      if (path === ':memory:') ctx.addIssue({ code: 'custom', message: 'sqlite: needs a file path, not :memory:' });
      return { kind: 'sqlite' as const, url, path };
    }
    if (url.startsWith('mysql://')) {
      try {
        const parsed = new URL(url);
        if (!parsed.hostname || parsed.pathname.length <= 1) throw new Error('incomplete');
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be mysql://user:password@host:port/database' });
        return z.NEVER;
      }
      return { kind: 'mysql' as const, url, path: '' };
    }
    if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
      try {
        const parsed = new URL(url);
        if (!parsed.hostname || parsed.pathname.length <= 1) throw new Error('incomplete');
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be postgres://user:password@host:port/database' });
        return z.NEVER;
      }
      return { kind: 'postgres' as const, url, path: '' };
    }
    ctx.addIssue({ code: 'custom', message: 'must start with sqlite:, mysql:// or postgres://' });
    return z.NEVER;
  });

const videoStore = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseVideoStoreTarget(value === undefined || value === '' ? 'file:data/videos' : value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
/** `redis://` or `rediss://` URL of the Redis that several instances share. */
const redisUrl = z
  .string()
  .optional()
  .refine((value) => {
    if (value === undefined || value === '') return true;
    try {
      return ['redis:', 'rediss:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be a redis:// or rediss:// URL');

/** How long ended tasks are kept: `0` (keep all) or a duration such as `90d`, `12h`, `30s`. */
const retention = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const ms = parseDuration(value === undefined || value === '' ? '0' : value);
    if (ms === null) {
      ctx.addIssue({ code: 'custom', message: 'must be 0 or a duration such as 90d, 12h, 15m or 30s' });
      return z.NEVER;
    }
    return ms;
  });

/** A channel's breaker never stays open longer than this, however long its cool-down has doubled. */
export const MAX_BREAKER_COOLDOWN_MS = 600_000;

const schema = z.object({
  PORT: integer(0, 3000, 65535),
  DATABASE_URL: databaseUrl,
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PUBLIC_BASE_URL: publicBaseUrl,
  SIMULATOR: z.enum(['on', 'off'], { error: 'must be on or off' }).optional().default('on'),
  TASK_SYNC_INTERVAL_MS: integer(0, 1000),
  PROVIDER_PUSH_POLL_MS: integer(1000, 60_000, 86_400_000),
  ASSET_FOLLOW_UP_INTERVAL_MS: integer(0, 3000, 3_600_000),
  WEBHOOK_DELIVERY_INTERVAL_MS: integer(0, 1000, 3_600_000),
  TASK_TIMEOUT_MS: integer(1000, 1_800_000),
  TASK_LEASE_MS: integer(1000, 60_000),
  TASK_RETENTION: retention,
  CHANNEL_BREAKER_FAILURES: integer(1, 5, 1000),
  CHANNEL_BREAKER_COOLDOWN_MS: integer(100, 30_000, MAX_BREAKER_COOLDOWN_MS),
  TASK_PROVIDER_RETRIES: integer(0, 1, 10),
  DATABASE_QUERY_TIMEOUT_MS: integer(100, 10_000),
  DATABASE_POOL_SIZE: integer(1, 20, 500),
  MEDIA_ALLOW_PRIVATE_HOSTS: booleanFlag('MEDIA_ALLOW_PRIVATE_HOSTS', false),
  MAX_GATEWAY_HOPS: integer(0, 3, 20),
  VIDEO_STORE: videoStore,
  VIDEO_STORE_PATH_STYLE: booleanFlag('VIDEO_STORE_PATH_STYLE', false),
  VIDEO_URL_TTL_S: integer(1, 86_400, 365 * 86_400),
  VIDEO_MAX_BYTES: integer(1, 1024 ** 3),
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: z
    .string()
    .optional()
    .default('gateway:')
    .refine((value) => /^[\w:.-]{1,64}$/.test(value), 'must be 1 to 64 letters, digits or _ : . -'),
  TRUSTED_PROXIES: trustedProxies,
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  BODY_MEMORY_LIMIT_MB: integer(1, 64, 4096),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  QUOTA_PER_UNIT: integer(1, 10_000),
  CURRENCY: z
    .string()
    .optional()
    .default('USD')
    .refine((value) => /^[A-Z]{3}$/.test(value), 'must be a three-letter ISO 4217 code such as USD'),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
  OTEL_SERVICE_NAME: z.string().optional(),
  CATALOG_FEED_URL: catalogFeedUrl,
  CATALOG_FEED_INTERVAL: catalogFeedInterval,
  CATALOG_FEED_PUBLIC_KEY: catalogFeedPublicKey,
});

/** OpenTelemetry traces over OTLP/HTTP, set when OTEL_EXPORTER_OTLP_ENDPOINT is. */
export interface TracingConfig {
  endpoint: string;
  /** OTEL_SERVICE_NAME, default `video-gateway`. */
  serviceName: string;
}

export type DatabaseTarget = { kind: 'sqlite' | 'mysql' | 'postgres'; url: string; path: string };

export interface AppConfig {
  port: number;
  database: DatabaseTarget;
  /** A query (or a MySQL connection attempt) that takes longer fails, so a stalled database is a 503, not a hang. */
  databaseQueryTimeoutMs: number;
  /** MySQL: the most connections the pool opens (requests beyond wait for one, within the query timeout). */
  databasePoolSize: number;
  /** Set when the operator fixed the admin token; otherwise one is generated at first start. */
  adminToken?: string;
  /**
   * SERVER_SECRET (or the file SERVER_SECRET_FILE names): the key that signs links and encrypts
   * stored secrets, kept outside the database. Unset: one is generated at first start and kept in the database.
   */
  serverSecret?: string;
  /** SERVER_SECRET_PREVIOUS(_FILE): the key before a rotation, still accepted to decrypt and verify while everything moves to the new one. */
  serverSecretPrevious?: string;
  publicBaseUrl: string;
  /** PUBLIC_BASE_URL was set (not the localhost default): only then can a provider call back (providers that push). */
  publicBaseUrlSet: boolean;
  /** The polls of a task whose provider calls back: a safety net this far apart (PROVIDER_PUSH_POLL_MS). */
  providerPushPollMs: number;
  simulator: boolean;
  /** 0 turns the automatic sync loop off (tests drive it by hand). */
  taskSyncIntervalMs: number;
  /** How often the verification asset follow-up looks for due assets; 0 turns it off (tests drive it by hand). */
  assetFollowUpIntervalMs: number;
  /** How often the webhook delivery job looks for due attempts (it is also woken when a task ends here); 0 turns it off (tests drive it by hand). */
  webhookDeliveryIntervalMs: number;
  taskTimeoutMs: number;
  /** How long a claimed task (poll or submit) belongs to one instance before others may take it over. */
  taskLeaseMs: number;
  /** Provider faults in a row on a channel that open its breaker. */
  channelBreakerFailures: number;
  /** How long an opened breaker stays open first; it doubles while the channel keeps failing, up to MAX_BREAKER_COOLDOWN_MS. */
  channelBreakerCooldownMs: number;
  /** Times a task the provider accepted, then failed for its own reason (internal error, timeout upstream), is submitted again on another channel. */
  taskProviderRetries: number;
  /** Ended tasks older than this are deleted with their stored video and rows (not their ledger rows); 0 keeps every task. */
  taskRetentionMs: number;
  mediaAllowPrivateHosts: boolean;
  /** A submit that has already passed through more gateways than this (X-Gateway-Hops) is refused: a chain that loops ends there. */
  maxGatewayHops: number;
  /** The gateway's own copy of finished videos (`none`: a pure proxy of the provider). */
  videoStore: VideoStoreTarget;
  /** Path-style S3 addressing (MinIO, s3rver, Ceph). */
  videoStorePathStyle: boolean;
  /** Lifetime of the signed content links in `metadata.url` and `data.result_url`. */
  videoUrlTtlSeconds: number;
  /** The largest video the archive keeps: a bigger one (announced or streamed) is not archived, and served from the provider. */
  videoMaxBytes: number;
  /** Set: limits, the sign-in throttle and key revocations are shared through this Redis; unset: per process. */
  redisUrl?: string;
  /** Prefixes every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Express's `trust proxy`: the proxies whose X-Forwarded-For is believed; false (default) believes none. */
  trustedProxies: TrustedProxies;
  /** Set: /metrics answers only `Authorization: Bearer <token>`; unset: anyone who reaches the port. */
  metricsToken?: string;
  /** Request bodies being read at once may hold at most this many bytes together; more wait (503). */
  bodyMemoryLimitBytes: number;
  logLevel: string;
  /** Quota units worth one unit of `currency`: the console shows prices and spend as money at this rate. */
  quotaPerUnit: number;
  /** ISO 4217 code of the money the console shows. */
  currency: string;
  /** Unset: no trace is made or sent, and the SDK is not even loaded. */
  tracing?: TracingConfig;
  /** Set by CATALOG_FEED_URL: models and prices read from a published document, merged as a release's are. */
  catalogFeed?: CatalogFeedConfig;
}

export class ConfigError extends Error {}

const isProblem = (value: string | undefined | SecretEnvProblem): value is SecretEnvProblem => typeof value === 'object';

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const result = schema.safeParse(env);
  const serverSecret = secretFromEnv(env, 'SERVER_SECRET');
  const serverSecretPrevious = secretFromEnv(env, 'SERVER_SECRET_PREVIOUS');
  const lines = result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  for (const secret of [serverSecret, serverSecretPrevious]) if (isProblem(secret)) lines.push(`${secret.variable}: ${secret.message}`);
  if (serverSecretPrevious !== undefined && serverSecret === undefined)
    lines.push('SERVER_SECRET_PREVIOUS: needs SERVER_SECRET (the new key) as well');
  if (!result.success || lines.length > 0) throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  const values = result.data;
  return {
    port: values.PORT,
    database: values.DATABASE_URL,
    databaseQueryTimeoutMs: values.DATABASE_QUERY_TIMEOUT_MS,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    adminToken: values.ADMIN_TOKEN,
    serverSecret: serverSecret as string | undefined,
    serverSecretPrevious: serverSecretPrevious === serverSecret ? undefined : (serverSecretPrevious as string | undefined),
    publicBaseUrl: (values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    publicBaseUrlSet: values.PUBLIC_BASE_URL !== undefined && values.PUBLIC_BASE_URL !== '',
    providerPushPollMs: values.PROVIDER_PUSH_POLL_MS,
    simulator: values.SIMULATOR === 'on',
    taskSyncIntervalMs: values.TASK_SYNC_INTERVAL_MS,
    assetFollowUpIntervalMs: values.ASSET_FOLLOW_UP_INTERVAL_MS,
    webhookDeliveryIntervalMs: values.WEBHOOK_DELIVERY_INTERVAL_MS,
    taskTimeoutMs: values.TASK_TIMEOUT_MS,
    taskLeaseMs: values.TASK_LEASE_MS,
    taskRetentionMs: values.TASK_RETENTION,
    channelBreakerFailures: values.CHANNEL_BREAKER_FAILURES,
    channelBreakerCooldownMs: values.CHANNEL_BREAKER_COOLDOWN_MS,
    taskProviderRetries: values.TASK_PROVIDER_RETRIES,
    mediaAllowPrivateHosts: values.MEDIA_ALLOW_PRIVATE_HOSTS,
    maxGatewayHops: values.MAX_GATEWAY_HOPS,
    videoStore: values.VIDEO_STORE,
    videoStorePathStyle: values.VIDEO_STORE_PATH_STYLE,
    videoUrlTtlSeconds: values.VIDEO_URL_TTL_S,
    videoMaxBytes: values.VIDEO_MAX_BYTES,
    redisUrl: values.REDIS_URL || undefined,
    redisKeyPrefix: values.REDIS_KEY_PREFIX,
    trustedProxies: values.TRUSTED_PROXIES,
    metricsToken: values.METRICS_TOKEN || undefined,
    bodyMemoryLimitBytes: values.BODY_MEMORY_LIMIT_MB * 1024 * 1024,
    logLevel: values.LOG_LEVEL,
    quotaPerUnit: values.QUOTA_PER_UNIT,
    currency: values.CURRENCY,
    tracing: values.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: values.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: values.OTEL_SERVICE_NAME || 'video-gateway' }
      : undefined,
    catalogFeed: catalogFeedConfig(values),
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
