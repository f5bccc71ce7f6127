import { ChannelsService } from '../../src/upstream/channels.service';
import { createServiceTestModule, FAKE_PLATFORM, type ServiceTestContext } from './support/service-test-module';

// Tests src/upstream/channel-router.service.ts on a real SQLite database.
describe('ChannelRouter (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await createServiceTestModule();
    const add = async (name: string, over: Parameters<ServiceTestContext['createChannel']>[0]) =>
      (ids[name] = (await t.createChannel({ name, ...over })).id);
    await add('low', { models: ['fake-1'], priority: 0 });
    await add('high-a', { models: ['FAKE-1', 'fake-2'], priority: 10, weight: 1 });
    await add('high-b', { models: ['fake-1'], priority: 10, weight: 3 });
    await add('disabled', { models: ['fake-1'], priority: 100, status: 'disabled' });
    await add('vip-only', { models: ['fake-1'], priority: 50, groups: ['vip'] });
    await add('vip-customers', { models: ['fake-1'], priority: 60, groups: ['vip-customers'] });
    await add('other-model', { models: ['fake-3'], priority: 90 });
    await add('other-platform', { platform: 'elsewhere', models: ['fake-1'], priority: 90 });
  });
  afterAll(() => t.close());

  const names = async (model: string, group: string) => {
    const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    return (await t.router.candidates(FAKE_PLATFORM, model, group)).map((channel) => byId[channel.id]);
  };

  it('enabled channels of the platform listing the model (any case), highest priority first', async () => {
    t.router.random = () => 0.5;
    const order = await names('Fake-1', 'default');
    expect(order.slice(2)).toEqual(['low']);
    expect(order.slice(0, 2).sort()).toEqual(['high-a', 'high-b']);
    expect(await names('fake-2', 'default')).toEqual(['high-a']);
    expect(await names('fake-9', 'default')).toEqual([]);
  });

  it('groups match exactly: vip sees its channel first, not the vip-customers one', async () => {
    t.router.random = () => 0.5;
    const order = await names('fake-1', 'vip');
    expect(order[0]).toBe('vip-only');
    expect(order).not.toContain('vip-customers');
    expect(order).toHaveLength(4);
    expect((await names('fake-1', 'vip-customers'))[0]).toBe('vip-customers');
    expect(await names('fake-1', 'vi')).not.toContain('vip-only');
  });

  it('a disabled channel is never a candidate; re-enabled, it leads by its priority', async () => {
    expect(await names('fake-1', 'default')).not.toContain('disabled');
    const channels = t.module.get(ChannelsService);
    await channels.update(ids.disabled, { status: 'enabled' }, true);
    expect((await names('fake-1', 'default'))[0]).toBe('disabled');
    await channels.update(ids.disabled, { status: 'disabled' }, true);
    expect(await names('fake-1', 'default')).not.toContain('disabled');
  });

  it('within one priority the order is weighted: weight 3 leads about three times in four', async () => {
    let seed = 1;
    t.router.random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let bFirst = 0;
    for (let i = 0; i < 400; i++) if ((await names('fake-1', 'default'))[0] === 'high-b') bFirst++;
    expect(bFirst / 400).toBeGreaterThan(0.65);
    expect(bFirst / 400).toBeLessThan(0.85);
  });

  it('listedModel: the first enabled channel listing the model, as that channel spells it', async () => {
    expect(await t.router.listedModel([FAKE_PLATFORM], 'fake-1')).toEqual({ platform: FAKE_PLATFORM, model: 'fake-1' });
    expect(await t.router.listedModel([FAKE_PLATFORM], 'FAKE-2')).toEqual({ platform: FAKE_PLATFORM, model: 'fake-2' });
    expect(await t.router.listedModel([FAKE_PLATFORM], 'fake-9')).toBeNull();
  });
});
