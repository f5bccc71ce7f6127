import { EventEmitter } from 'node:events';
import type { RedisConnection } from '../shared-state/redis-connection.service';
import { ApiKeyCache } from './api-key-cache';
import type { ApiKeyEntity } from './api-key.entity';
import type { UserEntity } from './user.entity';

const key = { id: 1 } as ApiKeyEntity;
const user = (id: number) => ({ id }) as UserEntity;

/** Lets the fake subscriber's SUBSCRIBE resolve. */
const subscribed = () => new Promise((resolve) => setImmediate(resolve));

/** A stand-in for the Redis connection: its state, what was published, and a subscriber to feed. */
function fakeRedis(configured: boolean) {
  const listeners: Array<(up: boolean) => void> = [];
  const subscriber = Object.assign(new EventEmitter(), { status: 'ready', subscribe: jest.fn().mockResolvedValue(1) });
  const published: string[] = [];
  let failPublish = false;
  /** The invalidation counter every instance reads (`incr` on each invalidation). */
  let version = 0;
  const redis = {
    configured,
    isUp: configured,
    keyPrefix: 't:',
    client: configured
      ? {
          publish: jest.fn(async (_channel: string, message: string) =>
            failPublish ? Promise.reject(new Error('down')) : (published.push(message), 1),
          ),
          incr: jest.fn(async () => ++version),
          // Like Redis: no counter until the first INCR.
          get: jest.fn(async () => (version === 0 ? null : String(version))),
        }
      : null,
    subscriber: configured ? subscriber : null,
    onStateChange: (listener: (up: boolean) => void) => listeners.push(listener),
  };
  const setUp = (up: boolean) => {
    redis.isUp = up;
    failPublish = !up;
    for (const listener of listeners) listener(up);
  };
  /** Another instance's invalidation whose pub/sub message never arrived. */
  const lostInvalidation = () => version++;
  return { redis: redis as unknown as RedisConnection & { isUp: boolean }, subscriber, published, setUp, lostInvalidation };
}

describe('ApiKeyCache', () => {
  it('keeps entries 5 s without Redis, and forgets locally', () => {
    const { redis } = fakeRedis(false);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    cache.set('h1', key, user(7), 0);
    expect(cache.get('h1', 4_999)).toBeDefined();
    expect(cache.get('h1', 5_000)).toBeUndefined();
    cache.set('h2', key, user(7), 0);
    cache.forgetUser(7);
    expect(cache.get('h2', 1)).toBeUndefined();
  });

  it('with Redis up keeps entries 60 s, publishes what it forgets and applies what others publish', async () => {
    const { redis, subscriber, published } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    expect(subscriber.subscribe).toHaveBeenCalledWith('t:api-key-invalidations');
    await subscribed();
    cache.set('h1', key, user(7), 0);
    expect(cache.get('h1', 59_999)).toBeDefined();
    cache.forgetKey('h1');
    cache.forgetUser(8);
    return Promise.resolve().then(() => {
      expect(published).toEqual(['k:h1', 'u:8']);
      cache.set('h2', key, user(9), 0);
      cache.set('h3', key, user(10), 0);
      subscriber.emit('message', 't:api-key-invalidations', 'u:9');
      subscriber.emit('message', 'other-channel', 'k:h3');
      expect(cache.get('h2', 1)).toBeUndefined();
      expect(cache.get('h3', 1)).toBeDefined();
    });
  });

  it('caches accounts by id like keys: dropped by a change of the user here or on another instance, and when they expire', async () => {
    const { redis, subscriber } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    await subscribed();
    cache.setAccount(user(7), 0);
    cache.setAccount(user(8), 0);
    expect(cache.getAccount(7, 59_999)).toEqual(user(7));
    expect(cache.getAccount(7, 60_000)).toBeUndefined();
    cache.forgetUser(8);
    expect(cache.getAccount(8, 1)).toBeUndefined();
    cache.setAccount(user(9), 0);
    subscriber.emit('message', 't:api-key-invalidations', 'u:9');
    expect(cache.getAccount(9, 1)).toBeUndefined();
    const generation = cache.generation;
    cache.forgetUser(10);
    cache.setAccount(user(10), 0, generation);
    expect(cache.getAccount(10, 1)).toBeUndefined();
  });

  it('caches 2 s until the subscription to invalidations is confirmed, then starts from an empty cache', async () => {
    const { redis } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    cache.set('h1', key, user(7), 0);
    expect(cache.get('h1', 1_999)).toBeDefined();
    expect(cache.get('h1', 2_000)).toBeUndefined();
    cache.set('h2', key, user(7), 0);
    await subscribed();
    // What was cached before may have missed an invalidation.
    expect(cache.get('h2', 1)).toBeUndefined();
    cache.set('h3', key, user(7), 0);
    expect(cache.get('h3', 59_999)).toBeDefined();
  });

  it('clears itself within a version check when another instance invalidated and the message was lost (the first one ever too)', async () => {
    const { redis, lostInvalidation } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    const checkVersion = () => (cache as unknown as { checkVersion(): Promise<void> }).checkVersion();
    cache.onModuleInit();
    await subscribed();
    await checkVersion();
    cache.set('h1', key, user(7), 0);
    await checkVersion();
    expect(cache.get('h1', 1)).toBeDefined();
    lostInvalidation();
    await checkVersion();
    expect(cache.get('h1', 1)).toBeUndefined();
    cache.onModuleDestroy();
  });

  it('does not cache a lookup that an invalidation overtook (the rows may predate the revocation)', () => {
    const { redis, subscriber } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    const generation = cache.generation;
    subscriber.emit('message', 't:api-key-invalidations', 'k:h1');
    cache.set('h1', key, user(7), 0, generation);
    expect(cache.get('h1', 1)).toBeUndefined();
    cache.set('h1', key, user(7), 0, cache.generation);
    expect(cache.get('h1', 1)).toBeDefined();
  });

  it('clears itself when Redis is lost or returns, caches 2 s meanwhile, and publishes held invalidations on return', async () => {
    const { redis, subscriber, published, setUp } = fakeRedis(true);
    const cache = new ApiKeyCache(redis);
    cache.onModuleInit();
    cache.set('h1', key, user(7), 0);
    setUp(false);
    expect(cache.get('h1', 1)).toBeUndefined();
    cache.set('h2', key, user(7), 0);
    expect(cache.get('h2', 1_999)).toBeDefined();
    expect(cache.get('h2', 2_000)).toBeUndefined();
    cache.forgetKey('revoked-while-down');
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toEqual([]);
    cache.set('h3', key, user(7), 0);
    setUp(true);
    expect(cache.get('h3', 1)).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toEqual(['k:revoked-while-down']);
    // A subscriber that reconnects may have missed messages: it starts from an empty cache.
    subscriber.emit('ready');
    cache.set('h4', key, user(7), 0);
    subscriber.emit('ready');
    expect(cache.get('h4', 1)).toBeUndefined();
    // ioredis restores only subscriptions of a connection that was ready: each 'ready' subscribes again.
    expect(subscriber.subscribe).toHaveBeenCalledTimes(3);
  });
});
