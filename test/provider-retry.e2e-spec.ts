import { AlphaEmulatorServer, alphaChannelBody, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { attemptsOf, ledgerOf } from './support/task-trail';
import { describeEachDatabase, describeOnSqlite } from './support/test-databases';

const QUOTA = 1_000_000;
/** gen4.5's seeded price per second, 6 seconds asked. */
const CHARGE = 6 * 1200;
const BODY = { model: 'gen4.5', prompt: 'a lighthouse at dusk', seconds: '6', size: '720x1280' };

interface Setup {
  gw: TestGateway;
  primary: RunwayEmulatorServer;
  backup: RunwayEmulatorServer;
  primaryId: number;
  backupId: number;
}

/** Two Runway channels for one model: the primary outranks the backup. */
async function twoChannels(kind: Parameters<typeof startGateway>[0], env: Record<string, string> = {}): Promise<Setup> {
  const [primary, backup] = await Promise.all([startRunwayEmulator(), startRunwayEmulator({ apiKey: 'key_runway-backup' })]);
  const gw = await startGateway(kind, env);
  const channel = (name: string, fake: RunwayEmulatorServer, priority: number) =>
    gw.createChannel({ name, platform: 'runway', base_url: fake.url, api_key: fake.apiKey, models: ['gen4.5'], priority });
  return { gw, primary, backup, primaryId: await channel('primary', primary, 10), backupId: await channel('backup', backup, 0) };
}

async function closeAll(setup: Setup | undefined): Promise<void> {
  await setup?.gw.close();
  await Promise.all([setup?.primary.close(), setup?.backup.close()]);
}

function calls(setup: () => Setup) {
  const submit = async (key: string) =>
    (await setup().gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send(BODY).expect(200)).body.id as string;
  const status = async (key: string, id: string) =>
    (await setup().gw.http.get(`/v1/videos/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
  const rounds = async (n: number) => {
    for (let round = 0; round < n; round++) {
      setup().gw.clock.advance(7_000);
      await setup().gw.sync();
    }
  };
  const ledger = (taskId: string) => ledgerOf(setup().gw, taskId);
  const timeline = (taskId: string) => attemptsOf(setup().gw, taskId);
  return { submit, status, rounds, ledger, timeline };
}

/**
 * Failover after acceptance (TASK_PROVIDER_RETRIES, default 1): a task Runway accepted and then failed
 * for its own reason runs again on the other channel under its first id and its one charge; moderation
 * and bad input end the task, refunded, with nothing sent elsewhere. Money, so on every database.
 */
describeEachDatabase('provider retry after acceptance', (kind) => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await twoChannels(kind);
  });
  afterAll(() => closeAll(setup));
  const { submit, status, rounds, ledger, timeline } = calls(() => setup);

  it('a provider-internal failure completes on the second channel under its first id, charged once; the timeline shows both attempts', async () => {
    const { primary, backup, gw, primaryId, backupId } = setup;
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    primary.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'INTERNAL' }]);
    const id = await submit(key);
    expect(backup.submits()).toHaveLength(0);
    await rounds(2);
    // Failed at the primary, taken by the backup: still running for the client.
    expect(backup.submits()).toHaveLength(1);
    expect(backup.submits()[0].json).toMatchObject({ model: 'gen4.5', promptText: BODY.prompt, duration: 6 });
    expect(await status(key, id)).toMatchObject({ id, status: 'in_progress' });
    await rounds(4);
    expect(await status(key, id)).toMatchObject({ id, status: 'completed', progress: 100 });
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - CHARGE, used_quota: CHARGE });
    expect(await ledger(id)).toEqual([{ type: 'consume', quota: -CHARGE }]);
    const detail = (await gw.admin.get(`/api/admin/tasks/${id}`).expect(200)).body;
    expect(detail).toMatchObject({ channel_id: backupId, status: 'SUCCESS' });
    expect(await timeline(id)).toEqual([
      { kind: 'submitted', detail: `channel #${primaryId} (primary)` },
      {
        kind: 'attempt',
        detail: `channel #${primaryId} (primary) failed: generation failed: INTERNAL: provider internal error (the provider's own failure: submitted again on another channel)`,
      },
      { kind: 'submitted', detail: `channel #${backupId} (backup)` },
    ]);
    // The provider's own text and addresses never reach the client.
    expect(JSON.stringify(await status(key, id))).not.toContain('10.0.0.7');
  });

  it('a moderation failure is refunded, not retried: the second channel receives nothing', async () => {
    const { primary, backup, gw } = setup;
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const sent = backup.submits().length;
    primary.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'SAFETY.INPUT.TEXT' }]);
    const id = await submit(key);
    await rounds(3);
    expect(await status(key, id)).toMatchObject({ status: 'failed', error: { code: 'content_moderation_failed' } });
    expect(backup.submits()).toHaveLength(sent);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(await ledger(id)).toEqual([
      { type: 'consume', quota: -CHARGE },
      { type: 'refund', quota: CHARGE },
    ]);
  });

  it("a failure of the client's input is refunded, not retried", async () => {
    const { primary, backup, gw } = setup;
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const sent = backup.submits().length;
    primary.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'ASSET.INVALID' }]);
    const id = await submit(key);
    await rounds(3);
    expect(await status(key, id)).toMatchObject({ status: 'failed' });
    expect(backup.submits()).toHaveLength(sent);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  it('one retry only: failed again on the second channel, the task fails and is refunded once', async () => {
    const { primary, backup, gw } = setup;
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const sent = [primary.submits().length, backup.submits().length];
    primary.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'INTERNAL' }]);
    backup.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'THIRD_PARTY.UNAVAILABLE' }]);
    const id = await submit(key);
    await rounds(6);
    expect(await status(key, id)).toMatchObject({ status: 'failed' });
    expect([primary.submits().length, backup.submits().length]).toEqual([sent[0] + 1, sent[1] + 1]);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(await ledger(id)).toEqual([
      { type: 'consume', quota: -CHARGE },
      { type: 'refund', quota: CHARGE },
    ]);
  });
});

describeOnSqlite('provider retry turned off', (kind) => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await twoChannels(kind, { TASK_PROVIDER_RETRIES: '0' });
  });
  afterAll(() => closeAll(setup));
  const { submit, status, rounds } = calls(() => setup);

  it('TASK_PROVIDER_RETRIES=0: a provider-internal failure ends the task, refunded, and nothing goes to the second channel', async () => {
    const { primary, backup, gw } = setup;
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    primary.scriptNext(['RUNNING', { status: 'FAILED', failureCode: 'INTERNAL' }]);
    const id = await submit(key);
    await rounds(3);
    expect(await status(key, id)).toMatchObject({ status: 'failed' });
    expect(backup.submits()).toHaveLength(0);
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });
});

/**
 * Family A's status 8 (`generation failed`: the interface's advice is to retry) is the provider's own
 * failure: the task runs once more on the other channel; moderation (7) is not.
 */
describeOnSqlite('provider retry of family A', (kind) => {
  let gw: TestGateway;
  let primary: AlphaEmulatorServer;
  let backup: AlphaEmulatorServer;
  beforeAll(async () => {
    [primary, backup] = await Promise.all([startAlphaEmulator(), startAlphaEmulator({ apiKey: 'alpha-backup-key' })]);
    gw = await startGateway(kind);
    await gw.createChannel(alphaChannelBody(primary, { name: 'primary', priority: 10 }));
    await gw.createChannel(alphaChannelBody(backup, { name: 'backup', priority: 0 }));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([primary?.close(), backup?.close()]);
  });

  const run = async (primaryScript: number[]) => {
    const { userId, key } = await gw.createCustomer({ quota: QUOTA });
    const sentToBackup = backup.calls('generate').length;
    primary.scriptNext(primaryScript);
    backup.scriptNext([5, 1]);
    const res = await gw.http.post('/v1/videos').set('Authorization', `Bearer ${key}`).send({ model: 'alpha/v5', prompt: 'x' }).expect(200);
    for (let round = 0; round < 6; round++) {
      gw.clock.advance(10_000);
      await gw.sync();
    }
    const task = (await gw.http.get(`/v1/videos/${res.body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body;
    return { task, sentToBackup: backup.calls('generate').length - sentToBackup, balance: await gw.balance(userId) };
  };

  it('status 8 runs again on the other channel and completes, charged once', async () => {
    const { task, sentToBackup, balance } = await run([5, 8]);
    expect(task.status).toBe('completed');
    expect(sentToBackup).toBe(1);
    expect(balance.used_quota).toBeGreaterThan(0);
  });

  it('moderation (status 7) ends the task, refunded, with nothing sent to the other channel', async () => {
    const { task, sentToBackup, balance } = await run([5, 7]);
    expect(task.status).toBe('failed');
    expect(sentToBackup).toBe(0);
    expect(balance).toEqual({ quota: QUOTA, used_quota: 0 });
  });
});
