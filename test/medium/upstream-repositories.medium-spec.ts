import { ChannelEntity } from '../../src/upstream/channel.entity';
import { ChannelRepository } from '../../src/upstream/channel.repository';
import { UpstreamCallStatsRepository } from '../../src/upstream/upstream-call-stats.repository';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

const MINUTE = 60_000;
const buckets = (...counts: number[]) => [...counts, ...new Array(8 - counts.length).fill(0)];

/** UpstreamModule's repositories (channels as stored, the upstream call statistics), on each database. */
describeEachDatabase('upstream repositories (service tier)', (kind) => {
  let t: ServiceTestContext;
  let channels: ChannelRepository;
  let stats: UpstreamCallStatsRepository;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind });
    channels = t.module.get(ChannelRepository);
    stats = t.module.get(UpstreamCallStatsRepository);
  });
  afterAll(() => t.close());

  const channel = (name: string, extra: Partial<ChannelEntity> = {}): Omit<ChannelEntity, 'id'> => ({
    name,
    platform: 'fake',
    baseUrl: 'http://127.0.0.1:1',
    apiKey: 'sealed-key',
    models: ['fake-1'],
    modelMapping: null,
    settings: { workspace: 'w' },
    groups: null,
    priority: 0,
    weight: 1,
    status: 'enabled',
    requestCount: 0,
    errorCount: 0,
    lastError: null,
    createdAt: 1,
    updatedAt: 1,
    ...extra,
  });

  it('channels: insert, find, list, update, the enabled ones of some platforms, their secrets', async () => {
    const a = await channels.insert(channel('a'));
    const b = await channels.insert(channel('b', { platform: 'other', status: 'disabled' }));
    const c = await channels.insert(channel('c', { platform: 'other' }));
    expect(await channels.findById(a.id)).toMatchObject({ name: 'a', models: ['fake-1'], settings: { workspace: 'w' } });
    expect((await channels.list()).map((row) => row.id)).toEqual([a.id, b.id, c.id]);
    expect(await channels.count()).toBe(3);
    expect((await channels.enabledOn(['fake', 'other'])).map((row) => row.id)).toEqual([a.id, c.id]);
    expect((await channels.enabledOn(['other'])).map((row) => row.id)).toEqual([c.id]);
    await channels.update(b.id, { status: 'enabled', models: ['x'], updatedAt: 2 });
    expect((await channels.enabledOn(['other'])).map((row) => row.id)).toEqual([b.id, c.id]);
    expect(await channels.findById(b.id)).toMatchObject({ models: ['x'], updatedAt: 2 });
    expect((await channels.listSecrets())[0]).toEqual({ id: a.id, platform: 'fake', apiKey: 'sealed-key', settings: { workspace: 'w' } });
    await channels.updateSecrets(a.id, { apiKey: 'resealed', settings: { workspace: 'w2' } });
    expect(await channels.findById(a.id)).toMatchObject({ apiKey: 'resealed', settings: { workspace: 'w2' }, name: 'a' });
  });

  it('channels: accepted calls are added, a failed call is counted with its error', async () => {
    const a = await channels.insert(channel('counted'));
    await Promise.all([channels.addRequests(a.id, 3), channels.addRequests(a.id, 4), channels.recordError(a.id, 'transient: 502')]);
    expect(await channels.findById(a.id)).toMatchObject({ requestCount: 8, errorCount: 1, lastError: 'transient: 502' });
  });

  it('call statistics: instances add to the same minute rows; read per bucket and per channel; housekeeping deletes old minutes', async () => {
    const m0 = 1_000 * MINUTE;
    await stats.add([
      { minute: m0, channelId: 1, calls: 2, errors: 1, latencySumMs: 300, buckets: buckets(1, 1) },
      { minute: m0, channelId: 2, calls: 1, errors: 0, latencySumMs: 50, buckets: buckets(1) },
    ]);
    // Another instance's flush of the same minute and channel, concurrent with a third.
    await Promise.all([
      stats.add([{ minute: m0, channelId: 1, calls: 3, errors: 0, latencySumMs: 600, buckets: buckets(0, 0, 3) }]),
      stats.add([
        { minute: m0 + MINUTE, channelId: 1, calls: 1, errors: 1, latencySumMs: 20_000, buckets: buckets(0, 0, 0, 0, 0, 0, 0, 1) },
      ]),
    ]);
    expect(await stats.totalsByChannel(m0)).toEqual(
      expect.arrayContaining([
        { channelId: 1, calls: 6, errors: 2, latencySumMs: 20_900, buckets: buckets(1, 1, 3, 0, 0, 0, 0, 1) },
        { channelId: 2, calls: 1, errors: 0, latencySumMs: 50, buckets: buckets(1) },
      ]),
    );
    expect((await stats.totalsByChannel(m0 + MINUTE)).map((row) => [row.channelId, row.calls])).toEqual([[1, 1]]);
    const byBucket = await stats.totalsByBucket(m0, 5 * MINUTE);
    expect(byBucket).toEqual([
      { bucket: m0, channelId: 0, calls: 7, errors: 2, latencySumMs: 20_950, buckets: buckets(2, 1, 3, 0, 0, 0, 0, 1) },
    ]);
    expect(await stats.deleteBefore(m0 + MINUTE, 1)).toBe(1);
    expect(await stats.deleteBefore(m0 + MINUTE, 10)).toBe(1);
    expect(await stats.deleteBefore(m0 + MINUTE, 10)).toBe(0);
    expect((await stats.totalsByChannel(0)).map((row) => row.calls)).toEqual([1]);
  });
});
