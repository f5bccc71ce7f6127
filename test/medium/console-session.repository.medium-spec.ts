import { ConsoleSessionEntity } from '../../src/console/console-session.entity';
import { ConsoleSessionRepository } from '../../src/console/console-session.repository';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/** The console's sessions (ConsoleModule's repository), on each database. */
describeEachDatabase('ConsoleSessionRepository (service tier)', (kind) => {
  let t: ServiceTestContext;
  let sessions: ConsoleSessionRepository;
  beforeAll(async () => {
    t = await createServiceTestModule({ database: kind, entities: [ConsoleSessionEntity], providers: [ConsoleSessionRepository] });
    sessions = t.module.get(ConsoleSessionRepository);
  });
  afterAll(() => t.close());

  const hash = (c: string) => c.repeat(64);
  const all = () => t.dataSource.manager.find(ConsoleSessionEntity, { order: { tokenHash: 'ASC' } });

  it('writes a session, sweeping the expired ones; finds it while it lives; deletes it by its hash', async () => {
    await sessions.insertSweepingExpired({ tokenHash: hash('a'), kind: 'admin_token', userId: null, createdAt: 0, expiresAt: 100 }, 0);
    await sessions.insertSweepingExpired({ tokenHash: hash('b'), kind: 'user', userId: 7, createdAt: 0, expiresAt: 1_000 }, 0);
    expect(await sessions.findLive(hash('a'), 99)).toMatchObject({ kind: 'admin_token', userId: null, expiresAt: 100 });
    expect(await sessions.findLive(hash('a'), 100)).toBeNull();
    await sessions.insertSweepingExpired({ tokenHash: hash('c'), kind: 'user', userId: 7, createdAt: 200, expiresAt: 1_200 }, 200);
    expect((await all()).map((session) => session.tokenHash)).toEqual([hash('b'), hash('c')]);
    await sessions.deleteByTokenHash(hash('b'));
    expect((await all()).map((session) => session.tokenHash)).toEqual([hash('c')]);
    await sessions.deleteByTokenHash(hash('c'));
  });

  it("signs a user out everywhere but one session; another user's and admin sessions stay", async () => {
    const write = (c: string, kindOf: 'user' | 'admin_token', userId: number | null) =>
      sessions.insertSweepingExpired({ tokenHash: hash(c), kind: kindOf, userId, createdAt: 0, expiresAt: 10_000 }, 0);
    await write('d', 'user', 8);
    await write('e', 'user', 8);
    await write('f', 'user', 8);
    await write('g', 'user', 9);
    await write('h', 'admin_token', null);
    const keep = (await sessions.findLive(hash('e'), 0))!;
    await sessions.deleteUserSessions(8, keep.id);
    expect((await all()).map((session) => session.tokenHash)).toEqual([hash('e'), hash('g'), hash('h')]);
    await sessions.deleteUserSessions(8);
    expect((await all()).map((session) => session.tokenHash)).toEqual([hash('g'), hash('h')]);
  });

  it('housekeeping deletes at most `limit` expired sessions per call', async () => {
    for (const c of ['1', '2', '3']) {
      await t.dataSource.manager.insert(ConsoleSessionEntity, { tokenHash: hash(c), kind: 'user', userId: 1, createdAt: 0, expiresAt: 5 });
    }
    expect(await sessions.deleteExpired(6, 2)).toBe(2);
    expect(await sessions.deleteExpired(6, 2)).toBe(1);
    expect(await sessions.deleteExpired(6, 2)).toBe(0);
    expect((await all()).map((session) => session.tokenHash)).toEqual([hash('g'), hash('h')]);
  });
});
