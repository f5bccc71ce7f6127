import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Counter, Gauge } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { withinTime } from '../common/runtime/within-time';

/**
 * A heartbeat PING not answered within this counts as a hung Redis. Its deadline lets replies already
 * received run first (withinTime), so a reply held up by this instance's own busy event loop (a
 * CPU-bound host) is not taken for a hung Redis, which would split the shared limits.
 */
const PING_TIMEOUT_MS = 1_500;
/**
 * ioredis's own command timeout, only a backstop: its timer can fire before a reply already received
 * is read. A hung Redis is found by the heartbeat, which then cuts the connection, failing the
 * commands in flight at once (callers fall back to their in-process state).
 */
const COMMAND_BACKSTOP_MS = 5_000;
/** Reconnect attempts back off up to this (ioredis reconnects by itself, forever). */
const MAX_RECONNECT_DELAY_MS = 1_000;
/** Both connections are pinged this often: a hung Redis (no answer, connection still open) is a lost one. */
const HEARTBEAT_INTERVAL_MS = 1_000;
/** A connection not ready this long after start counts as down (a blackhole accepts and never answers, and never closes). */
const START_GRACE_MS = 2_000;
/** Shutdown waits this long for QUIT, then drops the connections (an unreachable or hung Redis never answers). */
const QUIT_TIMEOUT_MS = 1_000;

type Listener = (up: boolean) => void;

/**
 * The connection to the Redis that instances share (REDIS_URL), or none. Commands never queue while
 * it is down (they fail at once, so callers fall back to in-process limits); the loss and the return
 * are logged once each, and shown as `gateway_redis_up` in /metrics and `redis` in /health.
 */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  /** Commands (limits, publishing); null without REDIS_URL. */
  readonly client: Redis | null;
  /** Subscriber mode needs a connection of its own. */
  readonly subscriber: Redis | null;
  readonly keyPrefix: string;
  private state: 'connecting' | 'up' | 'down' = 'connecting';
  private readonly listeners: Listener[] = [];
  private readonly upGauge: Gauge | null = null;
  private readonly fallbacks: Counter | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** A heartbeat still waiting for its PINGs: the next one is skipped rather than stacked. */
  private checking = false;
  private readonly startedAt = Date.now();

  constructor(@Inject(APP_CONFIG) config: AppConfig, registry: MetricsRegistry) {
    this.keyPrefix = config.redisKeyPrefix;
    if (!config.redisUrl) {
      this.client = null;
      this.subscriber = null;
      return;
    }
    const options = {
      lazyConnect: false,
      enableOfflineQueue: false,
      commandTimeout: COMMAND_BACKSTOP_MS,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    };
    this.client = new Redis(config.redisUrl, options);
    // The subscriber keeps its SUBSCRIBE queued until Redis is there (also when it is down at start).
    this.subscriber = new Redis(config.redisUrl, {
      ...options,
      enableOfflineQueue: true,
      commandTimeout: undefined,
      maxRetriesPerRequest: null,
    });
    // Up once both are ready: with only the client ready, the next heartbeat would say down again.
    const bothReady = () => this.client?.status === 'ready' && this.subscriber?.status === 'ready';
    this.client.on('ready', () => bothReady() && this.setUp(true));
    this.subscriber.on('ready', () => bothReady() && this.setUp(true));
    this.client.on('close', () => this.setUp(false));
    // Errors are reported through the state change; without a listener ioredis would print each retry.
    this.client.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.heartbeat = setInterval(() => void this.checkAnswering(), HEARTBEAT_INTERVAL_MS).unref();
    this.upGauge = new Gauge({
      name: 'gateway_redis_up',
      help: '1 while the shared Redis (REDIS_URL) answers, 0 while the gateway runs on in-process limits',
      registers: [registry],
    });
    this.upGauge.set(0);
    this.fallbacks = new Counter({
      name: 'gateway_redis_fallback_decisions_total',
      help: 'Rate-limit decisions taken in process because the shared Redis was unavailable',
      registers: [registry],
    });
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /** True while Redis answers; false without REDIS_URL or while it is down. */
  get isUp(): boolean {
    return this.state === 'up';
  }

  /** Called with the new state at every change (the key cache clears itself on both edges). */
  onStateChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** A limiter decided in process for want of Redis. */
  countFallback(): void {
    this.fallbacks?.inc();
  }

  /**
   * Up while both connections answer a PING in time. One still not ready at a heartbeat counts as not
   * answering: a Redis that hangs while a connection is being set up never closes it either.
   */
  private async checkAnswering(): Promise<void> {
    const connections = [this.client, this.subscriber].filter((c): c is Redis => c !== null && c !== undefined);
    if (connections.length === 0 || this.checking) return;
    this.checking = true;
    const answers = await Promise.all(
      connections.map((c) => (c.status === 'ready' ? answersWithin(c, PING_TIMEOUT_MS) : Promise.resolve(false))),
    ).finally(() => (this.checking = false));
    // The client may have closed meanwhile: its 'close' has already said so.
    if (this.client?.status === 'ready') {
      this.setUp(answers.every(Boolean));
      // Hung: its commands in flight would wait for the backstop; a new connection fails them now.
      if (!answers[0]) this.client.disconnect(true);
    }
    // Still connecting after the grace: said once, so the operator knows within seconds.
    else if (this.state === 'connecting' && Date.now() - this.startedAt >= START_GRACE_MS) this.setUp(false);
  }

  private setUp(up: boolean): void {
    const next = up ? 'up' : 'down';
    const previous = this.state;
    if (next === previous) return;
    this.state = next;
    this.upGauge?.set(up ? 1 : 0);
    if (up && previous === 'down') this.logger.log('Redis is back: limits and key revocations are shared again');
    if (!up)
      this.logger.warn(
        'REDIS_URL: Redis is unavailable; the gateway runs on: rate limits and the sign-in throttle are per process, and cached API keys live 2 s, until it returns',
      );
    for (const listener of this.listeners) listener(up);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const connection of [this.subscriber, this.client]) {
      if (!connection) continue;
      connection.removeAllListeners('close');
      await withinTime(connection.quit(), QUIT_TIMEOUT_MS).catch(() => undefined);
      // Stops reconnecting too, so nothing keeps the process alive.
      connection.disconnect();
    }
  }
}

const answersWithin = (connection: Redis, ms: number): Promise<boolean> =>
  withinTime(connection.ping(), ms).then(
    () => true,
    () => false,
  );
