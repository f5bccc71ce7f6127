import { PortraitUploadEntity } from '../../src/verification/entities/portrait-upload.entity';
import { VerificationApplicationEntity } from '../../src/verification/entities/verification-application.entity';
import { VerificationAssetEntity } from '../../src/verification/entities/verification-asset.entity';
import { VerificationGroupEntity } from '../../src/verification/entities/verification-group.entity';
import { VerificationSessionEntity } from '../../src/verification/entities/verification-session.entity';
import { AssetRepository } from '../../src/verification/asset.repository';
import { PortraitUploadRepository } from '../../src/verification/portrait-upload.repository';
import { VerificationApplicationRepository } from '../../src/verification/verification-application.repository';
import { VerificationSessionRepository } from '../../src/verification/verification-session.repository';
import { isUniqueViolation } from '../../src/database/transaction-runner';
import { describeEachDatabase } from '../support/test-databases';
import { createServiceTestModule, type ServiceTestContext } from './support/service-test-module';

/** VerificationModule's repositories (applications, sessions with their groups, assets, portrait uploads), on each database. */
describeEachDatabase('verification repositories (service tier)', (kind) => {
  let t: ServiceTestContext;
  let applications: VerificationApplicationRepository;
  let sessions: VerificationSessionRepository;
  let assets: AssetRepository;
  let uploads: PortraitUploadRepository;
  beforeAll(async () => {
    t = await createServiceTestModule({
      database: kind,
      entities: [
        VerificationApplicationEntity,
        VerificationSessionEntity,
        VerificationGroupEntity,
        VerificationAssetEntity,
        PortraitUploadEntity,
      ],
      providers: [VerificationApplicationRepository, VerificationSessionRepository, AssetRepository, PortraitUploadRepository],
    });
    applications = t.module.get(VerificationApplicationRepository);
    sessions = t.module.get(VerificationSessionRepository);
    assets = t.module.get(AssetRepository);
    uploads = t.module.get(PortraitUploadRepository);
  });
  afterAll(() => t.close());

  const application = (userId: number) => ({
    userId,
    company: 'ACME',
    useCase: 'ads',
    contact: 'a@acme.test',
    status: 'pending' as const,
    reviewNote: null,
    reviewedAt: null,
    createdAt: 1,
    updatedAt: 1,
  });

  it('applications: one pending per account; a review is a compare-and-set on pending; pages by status', async () => {
    const filed = await applications.insertUnlessPending(application(41));
    if (!('created' in filed)) throw new Error('expected a new application');
    const again = await applications.insertUnlessPending(application(41));
    expect(again).toEqual({ pending: expect.objectContaining({ id: filed.created.id }) });
    const decided = await t.transactions.run(async (manager) => [
      await applications.decide(manager, filed.created.id, 'approved', 'ok', 5),
      await applications.decide(manager, filed.created.id, 'rejected', null, 6),
    ]);
    expect(decided).toEqual([true, false]);
    expect(await t.transactions.run((manager) => applications.findIn(manager, filed.created.id))).toMatchObject({
      status: 'approved',
      reviewNote: 'ok',
      reviewedAt: 5,
      updatedAt: 5,
    });
    // Decided: the account may file again.
    expect('created' in (await applications.insertUnlessPending(application(41)))).toBe(true);
    expect((await applications.listOwn(41)).map((row) => row.status)).toEqual(['pending', 'approved']);
    expect((await applications.page('approved', { page: 1, pageSize: 10 })).data.map((row) => row.id)).toEqual([filed.created.id]);
    expect((await applications.page(undefined, { page: 1, pageSize: 1 })).total).toBe(2);
  });

  const session = (sessionId: string, userId: number) =>
    sessions.insert({
      sessionId,
      userId,
      channelId: 1,
      providerToken: `token-${sessionId}`,
      callbackUrl: 'https://client.test/back',
      h5Link: 'https://provider.test/h5',
      status: 'pending',
      groupId: null,
      resultCode: null,
      algorithmBaseRespCode: null,
      reqMeasureInfoValue: null,
      verifyType: null,
      callbackAt: null,
      confirmedAt: null,
      checkedAt: null,
      expiresAt: 1_000,
      createdAt: 0,
      updatedAt: 0,
    });

  it('sessions: found by owner and by token; one callback; a check never undoes a success', async () => {
    const mine = await session('vs_1', 51);
    expect((await sessions.findOwned(51, 'vs_1'))?.id).toBe(mine.id);
    expect(await sessions.findOwned(52, 'vs_1')).toBeNull();
    expect((await sessions.findByProviderToken('token-vs_1'))?.id).toBe(mine.id);
    const reported = {
      resultCode: '10000',
      algorithmBaseRespCode: null,
      reqMeasureInfoValue: null,
      verifyType: 'x',
      callbackAt: 10,
      status: 'pending' as const,
      updatedAt: 10,
    };
    expect(await sessions.recordCallbackOnce(mine.id, reported)).toBe(true);
    expect(await sessions.recordCallbackOnce(mine.id, { ...reported, resultCode: 'other', callbackAt: 11 })).toBe(false);
    await sessions.recordCheck(mine.id, { status: 'expired', checkedAt: 20, updatedAt: 20 });
    expect(await sessions.findOwned(51, 'vs_1')).toMatchObject({ resultCode: '10000', callbackAt: 10, status: 'expired', checkedAt: 20 });
    expect(await sessions.confirm(mine, 'group-1', 30)).toBeNull();
    await sessions.recordCheck(mine.id, { status: 'failed', checkedAt: 40, updatedAt: 40 });
    expect(await sessions.findOwned(51, 'vs_1')).toMatchObject({ status: 'succeeded', groupId: 'group-1', confirmedAt: 30, checkedAt: 30 });
    expect(await assets.ownedGroup(51, 'group-1')).toMatchObject({ userId: 51, sessionId: 'vs_1', channelId: 1, createdAt: 30 });
  });

  it("sessions: a group already the account's is reused; another account's is refused with nothing written", async () => {
    const second = await session('vs_2', 51);
    expect(await sessions.confirm(second, 'group-1', 50)).toBeNull();
    expect((await assets.groupsOf(51)).map((group) => group.groupId)).toEqual(['group-1']);
    const stranger = await session('vs_3', 53);
    expect(await sessions.confirm(stranger, 'group-1', 60)).toEqual({ ownedBy: 51 });
    expect(await sessions.findOwned(53, 'vs_3')).toMatchObject({ status: 'pending', groupId: null });
    await expect(assets.ownedGroup(53, 'group-1')).rejects.toMatchObject({ message: 'group group-1 not found' });
  });

  const asset = (assetId: string, userId: number, nextCheckAt: number) =>
    assets.insert({
      assetId,
      groupId: 'group-1',
      userId,
      channelId: 1,
      name: assetId,
      url: 'https://cdn.test/a.jpg',
      status: 'processing',
      error: null,
      nextCheckAt,
      leaseOwner: null,
      checkCount: 0,
      createdAt: 0,
      updatedAt: 0,
    });

  it('assets: scoped to their owner; settled once; claimed when due, rescheduled and released under the claim', async () => {
    const now = t.clock.now();
    const a = await asset('asset-a', 51, now - 10);
    const b = await asset('asset-b', 51, now + 10_000);
    await asset('asset-c', 51, now - 20);
    expect((await assets.owned(51, 'asset-a')).id).toBe(a.id);
    await expect(assets.owned(52, 'asset-a')).rejects.toMatchObject({ message: 'asset asset-a not found' });
    expect((await assets.ownedAmong(51, ['asset-a', 'asset-b', 'nope'])).map((row) => row.assetId).sort()).toEqual(['asset-a', 'asset-b']);
    expect((await assets.inGroup(51, 'group-1')).map((row) => row.assetId)).toEqual(['asset-c', 'asset-b', 'asset-a']);
    expect(await assets.oldestDueCheckAt(now)).toBe(now - 20);

    const claimed = await assets.claimDue('follow#1', 10, 60_000);
    expect(claimed.map((row) => row.assetId).sort()).toEqual(['asset-a', 'asset-c']);
    expect(claimed.every((row) => row.leaseOwner === 'follow#1' && row.nextCheckAt === now + 60_000)).toBe(true);
    expect(await assets.claimDue('follow#2', 10, 60_000)).toEqual([]);
    expect(await assets.oldestDueCheckAt(now)).toBeNull();

    const [first, second] = claimed.sort((x, y) => x.id - y.id);
    await assets.reschedule(first, now + 5_000, 'follow#2');
    expect(await assets.owned(51, first.assetId)).toMatchObject({ leaseOwner: 'follow#1', checkCount: 0 });
    await assets.reschedule(first, now + 5_000, 'follow#1');
    expect(await assets.owned(51, first.assetId)).toMatchObject({ leaseOwner: null, nextCheckAt: now + 5_000, checkCount: 1 });
    await assets.release(second, 'follow#1', now);
    expect(await assets.owned(51, second.assetId)).toMatchObject({ leaseOwner: null, nextCheckAt: now });

    expect(await assets.settle(b, 'failed', { code: 'FaceMismatch', message: 'no' })).toBe(true);
    expect(await assets.settle({ ...b }, 'active', null)).toBe(false);
    expect(await assets.owned(51, 'asset-b')).toMatchObject({
      status: 'failed',
      error: { code: 'FaceMismatch', message: 'no' },
      nextCheckAt: null,
    });
    await assets.remove(b);
    expect((await assets.inGroup(51, 'group-1')).map((row) => row.assetId)).toEqual(['asset-c', 'asset-a']);
    expect(isUniqueViolation(await asset('asset-a', 51, 0).catch((error: unknown) => error))).toBe(true);
  });

  it('portrait uploads: written sweeping the expired; read by id; housekeeping deletes in batches and counts the bytes', async () => {
    const upload = (uploadId: string, expiresAt: number, size = 3) => ({
      uploadId,
      userId: 1,
      contentType: 'image/png',
      size,
      bytes: Buffer.alloc(size, 7),
      createdAt: 0,
      expiresAt,
    });
    await uploads.insertSweepingExpired(upload('pu_old', 5), 0);
    await uploads.insertSweepingExpired(upload('pu_1', 100, 4), 10);
    expect(await uploads.findByUploadId('pu_old')).toBeNull();
    const read = await uploads.findByUploadId('pu_1');
    expect(read).toMatchObject({ contentType: 'image/png', size: 4 });
    expect(Buffer.from(read!.bytes).equals(Buffer.alloc(4, 7))).toBe(true);
    await uploads.insertSweepingExpired(upload('pu_2', 100, 5), 10);
    await uploads.insertSweepingExpired(upload('pu_3', 300, 6), 10);
    expect(await uploads.deleteExpired(101, 1)).toEqual({ rows: 1, bytes: 4 });
    expect(await uploads.deleteExpired(101, 10)).toEqual({ rows: 1, bytes: 5 });
    expect(await uploads.deleteExpired(101, 10)).toEqual({ rows: 0, bytes: 0 });
    expect(await uploads.findByUploadId('pu_3')).not.toBeNull();
  });
});
