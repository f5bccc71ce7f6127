import { ChannelRequestCounter } from '../../src/upstream/channel-request-counter.service';
import { ChannelsService } from '../../src/upstream/channels.service';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

// Tests src/upstream/channel-request-counter.service.ts on a real SQLite database.
describe('channel request counts (service tier, SQLite)', () => {
  let t: ServiceTestContext;
  beforeAll(async () => {
    t = await createServiceTestModule();
  });
  afterAll(() => t.close());

  it('adds accepted calls at the next flush, and failed calls at once with their error', async () => {
    const channels = t.module.get(ChannelsService);
    const counter = t.module.get(ChannelRequestCounter);
    const [a, b] = [await t.createChannel({ name: 'a' }), await t.createChannel({ name: 'b' })];
    for (let i = 0; i < 3; i++) await channels.recordOutcome(a.id, null);
    await channels.recordOutcome(b.id, null);
    await channels.recordOutcome(b.id, 'transient: upstream answered 502');
    expect((await channels.get(a.id)).requestCount).toBe(0);
    expect(await channels.get(b.id)).toMatchObject({ requestCount: 1, errorCount: 1, lastError: 'transient: upstream answered 502' });

    await counter.flush();
    expect((await channels.get(a.id)).requestCount).toBe(3);
    expect(await channels.get(b.id)).toMatchObject({ requestCount: 2, errorCount: 1 });
    await counter.flush();
    expect((await channels.get(a.id)).requestCount).toBe(3);
  });
});
