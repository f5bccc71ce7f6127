import { SharedRateLimiters } from '../../shared-state/shared-rate-limiters.service';
import type { RedisConnection } from '../../shared-state/redis-connection.service';
import type { ProviderPush } from '../../upstream/push/provider-push';
import { ProviderCallbackIntake, type ReceivedCallback } from './provider-callback-intake';

const NOW = 1_000_000;
const TASK = { id: 7, taskId: 'task_one', platform: 'kling', channelId: 1, upstreamTaskId: 'u1' };

/** The intake over plain fakes: a token `good` names `task_one`; the limiter is the real one, in process. */
function intake(push: ProviderPush = { ask: (create) => create }, task: typeof TASK | null = TASK) {
  const woken: Array<[number, number]> = [];
  const results: string[] = [];
  const redis = { configured: false, isUp: true, client: null, keyPrefix: `t${Math.random()}:` } as unknown as RedisConnection;
  const service = new ProviderCallbackIntake(
    {
      taskIdOf: (token: string) => (token === 'good' ? 'task_one' : null),
      url: () => 'http://gw/v1/provider-callbacks/kling/good',
    } as never,
    { findAdapter: (platform: string) => (platform === 'kling' ? { push } : null) } as never,
    { findByTaskId: async (id: string) => (id === TASK.taskId ? task : null) } as never,
    { get: async () => ({ id: 1, apiKey: 'k' }) } as never,
    new SharedRateLimiters(redis),
    { wake: (id: number, at: number) => woken.push([id, at]) } as never,
    { callback: (_: string, result: string) => results.push(result) } as never,
    { now: () => NOW },
  );
  return { service, woken, results };
}

const callback = (over: Partial<ReceivedCallback> = {}): ReceivedCallback => ({
  platform: 'kling',
  token: 'good',
  rawBody: Buffer.from('{"task_id":"u1"}'),
  headers: {},
  ...over,
});

describe('a provider callback', () => {
  it('wakes its task at once; more within the second are rate limited, their read deferred to the next second (one read per task per second)', async () => {
    const { service, woken, results } = intake();
    const answers = await Promise.all([service.receive(callback()), service.receive(callback()), service.receive(callback())]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(results).toEqual(['accepted', 'rate_limited', 'rate_limited']);
    expect(woken[0]).toEqual([TASK.id, NOW]);
    for (const [id, at] of woken.slice(1)) {
      expect(id).toBe(TASK.id);
      expect(at).toBeGreaterThan(NOW);
      expect(at).toBeLessThanOrEqual(NOW + 1000);
    }
  });

  it.each([
    ['a bad token', callback({ token: 'forged' }), TASK, 'bad_token'],
    ['a platform that does not call back', callback({ platform: 'veo' }), TASK, 'bad_token'],
    ['a task that does not exist', callback(), null, 'unknown_task'],
    ['a task of another platform', callback(), { ...TASK, platform: 'vidu' }, 'unknown_task'],
  ])('with %s is a 404 and reads nothing', async (_, sent, task, result) => {
    const { service, woken, results } = intake(undefined, task);
    expect((await service.receive(sent)).status).toBe(404);
    expect(results).toEqual([result]);
    expect(woken).toEqual([]);
  });

  it('that is not JSON is a 400 and reads nothing', async () => {
    const { service, woken } = intake();
    expect((await service.receive(callback({ rawBody: Buffer.from('<xml/>') }))).status).toBe(400);
    expect(woken).toEqual([]);
  });

  it("with a bad signature is a 401, reads nothing and leaves the task's read of this second to the genuine one", async () => {
    let signed = false;
    const { service, woken, results } = intake({ ask: (create) => create, verify: async () => signed });
    expect((await service.receive(callback())).status).toBe(401);
    signed = true;
    expect((await service.receive(callback())).status).toBe(200);
    expect(results).toEqual(['bad_signature', 'accepted']);
    expect(woken).toEqual([[TASK.id, NOW]]);
  });

  it("echoes a handshake (MiniMax's challenge) and reads nothing", async () => {
    const { service, woken } = intake({ ask: (create) => create, handshake: (body) => (body as { challenge?: string }).challenge ?? null });
    expect(await service.receive(callback({ rawBody: Buffer.from('{"challenge":"c1"}') }))).toEqual({ status: 200, body: 'c1' });
    expect(woken).toEqual([]);
  });
});
