import { SimulatorRecordEntity } from '../../src/families/simulator-shared/simulator-record.entity';
import { SimulatorRecordRepository } from '../../src/families/simulator-shared/simulator-record.repository';
import { SimulatorRecords } from '../../src/families/simulator-shared/simulator-records.service';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/** The embedded simulators' state (`simulator_records`): SimulatorRecordRepository's SQL through SimulatorRecords, on each database. */
describeEachDatabase('SimulatorRecordRepository (service tier)', (kind) => {
  let t: ServiceTestContext;
  let repository: SimulatorRecordRepository;
  let records: SimulatorRecords;
  beforeAll(async () => {
    t = await createServiceTestModule({
      database: kind,
      entities: [SimulatorRecordEntity],
      providers: [SimulatorRecordRepository, SimulatorRecords],
    });
    repository = t.module.get(SimulatorRecordRepository);
    records = t.module.get(SimulatorRecords);
  });
  afterAll(() => t.close());

  it('insertOrGet stores a record once per kind and key and answers the first one for a repeated key', async () => {
    const first = await records.insertOrGet('test.task', 'k-1', { n: 1 });
    expect(first).toEqual({ seq: expect.any(Number), key: 'k-1', parentKey: null, data: { n: 1 }, createdAt: t.clock.now() });
    t.clock.advance(1_000);
    expect(await records.insertOrGet('test.task', 'k-1', { n: 2 })).toEqual(first);
    const sameKeyOtherKind = await records.insertOrGet('test.other', 'k-1', { n: 3 });
    expect(sameKeyOtherKind.seq).toBeGreaterThan(first.seq);
    expect(await records.find('test.task', 'k-1')).toEqual(first);
    expect(await records.find('test.task', 'missing')).toBeNull();
    expect(await records.findBySeq('test.task', first.seq)).toEqual(first);
    expect(await records.findBySeq('test.task', sameKeyOtherKind.seq)).toBeNull();
    expect(await records.findBySeq('test.task', 0)).toBeNull();
    expect(await records.findBySeq('test.task', 1.5)).toBeNull();
  });

  it('lists a kind newest first, narrowed to children of some parents, up to a limit', async () => {
    const a = await records.insertOrGet('test.asset', 'a', { url: 'a' }, 'group-1');
    const b = await records.insertOrGet('test.asset', 'b', { url: 'b' }, 'group-2');
    const c = await records.insertOrGet('test.asset', 'c', { url: 'c' }, 'group-1');
    await records.insertOrGet('test.group', 'group-1', {});
    const keys = async (options: { parentKeys?: string[]; limit?: number }) =>
      (await records.list('test.asset', options)).map((record) => record.key);

    expect(await keys({})).toEqual([c.key, b.key, a.key]);
    expect(await keys({ parentKeys: ['group-1'] })).toEqual([c.key, a.key]);
    expect(await keys({ parentKeys: ['group-1', 'group-2'], limit: 2 })).toEqual([c.key, b.key]);
    expect(await keys({ parentKeys: [] })).toEqual([]);
    expect((await repository.listNewestFirst('test.asset', 10, ['group-2'])).map((row) => row.parentKey)).toEqual(['group-2']);
  });

  it('updates, removes and forgets the records created before a time, one kind at a time', async () => {
    const start = t.clock.now();
    await records.insertOrGet('test.old', 'x', { v: 1 });
    await records.insertOrGet('test.keep', 'x', { v: 1 });
    t.clock.advance(10_000);
    await records.insertOrGet('test.old', 'y', { v: 1 });

    await records.update('test.old', 'y', { v: 2, nested: { ok: true } });
    expect((await records.find('test.old', 'y'))?.data).toEqual({ v: 2, nested: { ok: true } });
    await records.forgetOlderThan('test.old', start + 5_000);
    expect(await records.find('test.old', 'x')).toBeNull();
    expect(await records.find('test.old', 'y')).not.toBeNull();
    expect(await records.find('test.keep', 'x')).not.toBeNull();
    expect(await records.remove('test.old', 'y')).toBe(true);
    expect(await records.remove('test.old', 'y')).toBe(false);
    expect(await records.find('test.old', 'y')).toBeNull();
  });
});
