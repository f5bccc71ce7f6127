import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RedisConnection } from '../../shared-state/redis-connection.service';
import { BreakerState, CLOSED, decodeState, encodeState, sameState } from './breaker-state';

/** How often the shared version is read: the bound on a change whose message this instance missed. */
const VERSION_CHECK_MS = 1_000;
/**
 * Compare-and-set rounds before a change gives way to the instances that kept changing the breaker
 * meanwhile (each instance changes a breaker one change at a time, so each round one of them wins).
 */
const CAS_ATTEMPTS = 20;

/**
 * Writes a breaker if it still is what the writer read (`ARGV[2]`, '' for closed), bumps the shared
 * version and publishes `<version> <channel> <state>`; answers {1, version} or {0, the stored state, the version now}.
 */
const COMPARE_AND_SET = `local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return {0, current, redis.call('GET', KEYS[2]) or '0'} end
if ARGV[3] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
local version = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[4], version .. ' ' .. ARGV[1] .. ' ' .. ARGV[3])
return {1, tostring(version)}`;

interface Entry {
  state: BreakerState;
  raw: string;
  /** The shared version that wrote it (0: decided in process while Redis was away). */
  version: number;
}

/**
 * Every channel's breaker as this instance knows it: read from a local copy (no I/O on a submit), and
 * changed by compare-and-set in Redis when REDIS_URL is set, so that every instance counts the same
 * faults and one trial runs at a time; each change is published to every instance at once, and a
 * shared version read every second catches a missed message. Without REDIS_URL, or while Redis is
 * down, breakers are per process; once Redis answers again its copy wins.
 */
@Injectable()
export class BreakerStates implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ChannelBreaker');
  private readonly local = new Map<number, Entry>();
  private readonly hashKey: string;
  private readonly versionKey: string;
  private readonly channel: string;
  /** The shared version up to which every change was applied here (a message past a gap waits for the next check's read). */
  private knownVersion = 0;
  private versionCheck: NodeJS.Timeout | null = null;
  /** Per channel: the end of this instance's last change under way (the next one waits for it). */
  private readonly changing = new Map<number, Promise<unknown>>();

  constructor(private readonly redis: RedisConnection) {
    this.hashKey = `${redis.keyPrefix}channel-breakers`;
    this.versionKey = `${redis.keyPrefix}channel-breakers:version`;
    this.channel = `${redis.keyPrefix}channel-breaker-changes`;
  }

  onModuleInit(): void {
    const subscriber = this.redis.subscriber;
    if (!subscriber) return;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.applyMessage(message);
    });
    // As the API-key cache: subscribed again on every ready connection, and read whole once subscribed.
    const subscribe = () =>
      subscriber
        .subscribe(this.channel)
        .then(() => this.reload(true))
        .catch((error: Error) => this.logger.warn(`cannot subscribe to breaker changes yet: ${error.message}`));
    subscriber.on('ready', () => void subscribe());
    if (subscriber.status === 'ready') void subscribe();
    this.redis.onStateChange((up) => up && void this.reload(true));
    this.versionCheck = setInterval(() => void this.checkVersion(), VERSION_CHECK_MS).unref();
  }

  onModuleDestroy(): void {
    if (this.versionCheck) clearInterval(this.versionCheck);
  }

  /** The breaker of `channelId` as this instance knows it now. */
  get(channelId: number): BreakerState {
    return this.local.get(channelId)?.state ?? CLOSED;
  }

  /** The channels whose breaker has something to say (a fault counted, open, half-open), with their state. */
  known(): Array<[number, BreakerState]> {
    return [...this.local].filter(([, entry]) => entry.raw !== '').map(([id, entry]): [number, BreakerState] => [id, entry.state]);
  }

  /**
   * Applies `change` to the breaker as it is everywhere (compare-and-set, read again when another
   * instance changed it first). Null when `change` declined (it answers null) or kept losing the race;
   * else the state written (or unchanged). This instance's changes of one breaker run one at a time.
   */
  update(channelId: number, change: (current: BreakerState) => BreakerState | null): Promise<BreakerState | null> {
    const previous = this.changing.get(channelId) ?? Promise.resolve();
    const next = previous.then(() => this.compareAndSet(channelId, change));
    const settled = next.catch(() => undefined);
    this.changing.set(channelId, settled);
    void settled.then(() => this.changing.get(channelId) === settled && this.changing.delete(channelId));
    return next;
  }

  private async compareAndSet(channelId: number, change: (current: BreakerState) => BreakerState | null): Promise<BreakerState | null> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const current = this.local.get(channelId) ?? { state: CLOSED, raw: '', version: 0 };
      const next = change(current.state);
      if (next === null) return null;
      if (sameState(next, current.state)) return current.state;
      const raw = encodeState(next);
      const client = this.redis.client;
      if (!client || !this.redis.isUp) {
        this.set(channelId, raw, 0);
        return next;
      }
      let answer: [number, string, string?];
      try {
        answer = (await client.eval(
          COMPARE_AND_SET,
          2,
          this.hashKey,
          this.versionKey,
          String(channelId),
          current.raw,
          raw,
          this.channel,
        )) as [number, string, string?];
      } catch (error) {
        // Redis went away mid-change: decided here; its copy is read again once it answers.
        this.logger.warn(`breaker of channel ${channelId} changed in process only: ${(error as Error)?.message ?? error}`);
        this.set(channelId, raw, 0);
        return next;
      }
      if (Number(answer[0]) === 1) {
        this.set(channelId, raw, Number(answer[1]));
        return next;
      }
      // Another instance changed it first: start again from what is stored (its message may still be on the way).
      this.set(channelId, String(answer[1] ?? ''), Number(answer[2] ?? 0), true);
    }
    this.logger.warn(`breaker of channel ${channelId} not changed: other instances kept changing it first`);
    return null;
  }

  /** A closed breaker stays as an entry with its version, so that an older message arriving late cannot bring back what it said. */
  private set(channelId: number, raw: string, version: number, force = false): void {
    const entry = this.local.get(channelId);
    if (!force && entry && version !== 0 && entry.version > version) return;
    this.local.set(channelId, { state: decodeState(raw), raw, version });
    if (version === this.knownVersion + 1) this.knownVersion = version;
  }

  /** `<version> <channel> <state>`: applied unless this instance knows a newer one. */
  private applyMessage(message: string): void {
    const [version, channelId, ...rest] = message.split(' ');
    const id = Number(channelId);
    if (!Number.isSafeInteger(id)) return;
    this.set(id, rest.join(' '), Number(version) || 0);
  }

  private async checkVersion(): Promise<void> {
    const client = this.redis.client;
    if (!client || !this.redis.isUp) return;
    const version = await client.get(this.versionKey).then(
      (value) => Number(value ?? 0),
      () => undefined,
    );
    if (version !== undefined && version > this.knownVersion) await this.reload(false);
  }

  /**
   * Every breaker as Redis has it. `replaceAll` after Redis was away (what this instance decided
   * alone gives way); else entries this instance wrote after the read are kept.
   */
  private async reload(replaceAll: boolean): Promise<void> {
    const client = this.redis.client;
    if (!client || !this.redis.isUp) return;
    const read = await client
      .multi()
      .get(this.versionKey)
      .hgetall(this.hashKey)
      .exec()
      .catch(() => null);
    if (!read || read.some(([error]) => error)) return;
    const version = Number(read[0][1] ?? 0);
    const stored = (read[1][1] ?? {}) as Record<string, string>;
    for (const [id, entry] of [...this.local]) {
      if (!(String(id) in stored) && (replaceAll || entry.version <= version)) this.set(id, '', version, true);
    }
    for (const [id, raw] of Object.entries(stored)) {
      const entry = this.local.get(Number(id));
      if (replaceAll || !entry || entry.version <= version) this.set(Number(id), raw, version, true);
    }
    this.knownVersion = Math.max(replaceAll ? 0 : this.knownVersion, version);
  }
}
