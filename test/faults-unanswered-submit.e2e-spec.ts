import { execFileSync } from 'node:child_process';
import { rmSync, rmdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fillDisk, mountSmallDisk } from './support/small-disk';
import { deterministicTraceId } from '../src/families/alpha/alpha-trace-id';
import { PendingSubmitWrites } from '../src/tasks/pending-submit-writes';
import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { GatewayBehindProxy, startGatewayBehindProxy } from './support/database-outage';
import { startGateway, TestGateway } from './support/gateway';
import { TcpProxy } from './support/tcp-proxy';
import { FreshDatabase, queryDatabase, describeOnMysql } from './support/test-databases';
import { until } from './support/until';

/**
 * A submit answered 503 because the database did not confirm a write in time must never run nor be
 * charged, even when the write went through after all (the COMMIT reached the server, its answer
 * did not reach the gateway): a client retrying without an Idempotency-Key must not pay twice.
 */
const QUERY_TIMEOUT_MS = 1000;
const LEASE_MS = 4000;
const QUOTA = 1_000_000;
/** alpha/v5 720p 5 s: 60 credits. */
const PRICE = 6000;

interface Answer {
  status: number;
  retryAfter: string | null;
  id?: string;
}

/** What the gateway, the fake provider and the database say about one customer's submits. */
function submitChecks(
  context: () => { gateway: TestGateway; database: FreshDatabase; alpha: AlphaEmulatorServer; customer: { userId: number; key: string } },
) {
  const submit = async (prompt: string): Promise<Answer> => {
    const { gateway, customer } = context();
    const res = await fetch(`${gateway.url}/v1/videos`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${customer.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'alpha/v5', prompt }),
    });
    const body = (await res.json().catch(() => null)) as { id?: string } | null;
    return { status: res.status, retryAfter: res.headers.get('retry-after'), id: res.ok ? body?.id : undefined };
  };

  /** Lets the owed writes land, every lease run out and the sync follow every task to its end. */
  const settle = async () => {
    const { gateway, database } = context();
    // Bounded, not asserted: the rounds and checks after it say what went wrong.
    await until(
      'no task SUBMITTING',
      () => queryDatabase(database, "SELECT id FROM tasks WHERE status = 'SUBMITTING'").catch(() => undefined),
      { done: (rows) => rows?.length === 0, timeoutMs: 20_000, everyMs: 200 },
    ).catch(() => undefined);
    for (let round = 0; round < 4; round++) {
      gateway.clock.advance(LEASE_MS * 2);
      await gateway.sync();
    }
  };

  /** Every 503 reached no provider, never succeeded and left no net charge; every 2xx was charged once. */
  const expectOnlyAcknowledgedCharged = async (answers: Answer[]) => {
    const { gateway, database, alpha, customer } = context();
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    const acknowledged = answers.filter((answer) => answer.status === 200).map((answer) => answer.id!);
    const refused = answers.filter((answer) => answer.status === 503);
    for (const answer of refused) expect(answer.retryAfter).toMatch(/^\d+$/);
    const tasks = await queryDatabase<{ task_id: string; status: string; fail_reason: string | null }>(
      database,
      `SELECT task_id, status, fail_reason FROM tasks WHERE user_id = ${customer.userId}`,
    );
    const logs = await queryDatabase<{ task_id: string; type: string }>(
      database,
      `SELECT task_id, type FROM logs WHERE user_id = ${customer.userId} ORDER BY id`,
    );
    const ledgerOf = (taskId: string) => logs.filter((log) => log.task_id === taskId).map((log) => log.type);
    const channelId = Number((await queryDatabase<{ id: number }>(database, 'SELECT id FROM channels'))[0].id);
    for (const task of tasks.filter((row) => !acknowledged.includes(row.task_id))) {
      expect({
        task: task.task_id,
        submittedUpstream: alpha.submitsByTraceId.get(deterministicTraceId(task.task_id, channelId, 'generate')) ?? 0,
      }).toEqual({
        task: task.task_id,
        submittedUpstream: 0,
      });
      expect({ task: task.task_id, status: task.status }).toEqual({ task: task.task_id, status: 'REJECTED' });
      expect(task.fail_reason).toMatch(/database did not confirm/);
      expect({ task: task.task_id, ledger: ledgerOf(task.task_id) }).toEqual({ task: task.task_id, ledger: ['hold', 'release'] });
    }
    for (const id of acknowledged) {
      expect({ id, status: tasks.find((task) => task.task_id === id)?.status }).toEqual({ id, status: 'SUCCESS' });
      expect({ id, ledger: ledgerOf(id) }).toEqual({ id, ledger: ['consume'] });
    }
    expect((await gateway.balance(customer.userId)).quota).toBe(QUOTA - acknowledged.length * PRICE);
  };

  return { submit, settle, expectOnlyAcknowledgedCharged };
}

describeOnMysql('[mysql] a submit whose COMMIT goes unanswered (MariaDB frozen right after it)', () => {
  let behind: GatewayBehindProxy;
  let database: FreshDatabase;
  let proxy: TcpProxy;
  let gateway: TestGateway;
  let alpha: AlphaEmulatorServer;
  let customer: { userId: number; key: string };
  const { submit, settle, expectOnlyAcknowledgedCharged } = submitChecks(() => ({ gateway, database, alpha, customer }));

  /** Freezes right after the COMMIT of a transaction whose statements included `marker`. */
  const freezeAfterCommitOf = (marker: string) => {
    const seen = new WeakSet<Socket>();
    proxy.freezeAfter((chunk, client) => {
      const text = chunk.toString('latin1');
      if (text.includes(marker)) seen.add(client);
      if (!text.endsWith('\x03COMMIT')) return false;
      const matched = seen.has(client);
      seen.delete(client);
      return matched;
    });
  };

  beforeAll(async () => {
    behind = await startGatewayBehindProxy('mysql', {
      DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      TASK_LEASE_MS: String(LEASE_MS),
    });
    ({ database, proxy, gateway, alpha } = behind);
    alpha.defaultScript = [1];
  });

  beforeEach(async () => {
    customer = await gateway.createCustomer({ quota: QUOTA });
  });

  afterAll(async () => {
    await behind?.close();
  });

  it('never runs nor charges a task whose record committed after its client was answered 503', async () => {
    const answers = [await submit('before')];
    freezeAfterCommitOf('INSERT INTO `tasks`');
    answers.push(await submit('its COMMIT goes unanswered'));
    expect(answers[1].status).toBe(503);
    proxy.thaw();
    answers.push(await submit('after'));
    await settle();
    await expectOnlyAcknowledgedCharged(answers);
  });

  it('answers with the task when the provider took it and only the acceptance went unanswered, and charges it once', async () => {
    const answers: Answer[] = [];
    freezeAfterCommitOf("SET status = 'NOT_START'");
    answers.push(await submit('its acceptance goes unanswered'));
    proxy.thaw();
    // Its acceptance is tried again (a compare-and-set, a no-op here) before the next freeze is set up.
    await until('no submit write owed', () => gateway.app.get(PendingSubmitWrites).size, { done: (owed) => owed === 0, timeoutMs: 20_000 });
    // The acceptance cut off before its COMMIT (rolled back): written again once the database answers.
    proxy.freezeAfter((chunk) => chunk.toString('latin1').includes("SET status = 'NOT_START'"));
    answers.push(await submit('its acceptance is rolled back'));
    proxy.thaw();
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await settle();
    await expectOnlyAcknowledgedCharged(answers);
  });
});

const mountPoint = mountSmallDisk(24, 'gw-unanswered-');
const describeWithDisk = mountPoint ? describe : describe.skip;

describeWithDisk('[sqlite] a submit whose writes fail on a full disk', () => {
  const path = join(mountPoint ?? '/nonexistent', 'gateway.sqlite');
  const database: FreshDatabase = { kind: 'sqlite', url: `sqlite:${path}`, drop: async () => undefined };
  let gateway: TestGateway;
  let alpha: AlphaEmulatorServer;
  let customer: { userId: number; key: string };
  const { submit, settle, expectOnlyAcknowledgedCharged } = submitChecks(() => ({ gateway, database, alpha, customer }));

  beforeAll(async () => {
    gateway = await startGateway(
      'sqlite',
      { DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS), TASK_LEASE_MS: String(LEASE_MS) },
      database,
    );
    alpha = await startAlphaEmulator();
    alpha.defaultScript = [1];
    await gateway.createChannel(alphaChannelBody(alpha));
    customer = await gateway.createCustomer({ quota: QUOTA });
  });

  afterAll(async () => {
    await gateway?.close();
    await alpha?.close();
    try {
      execFileSync('umount', [mountPoint!]);
      rmdirSync(mountPoint!);
    } catch {
      /* leave it for the OS */
    }
  });

  it('charges and runs only the submits it answered 2xx, whichever write the full disk failed', async () => {
    const answers = [await submit('before')];

    // The disk fills before the record's COMMIT: a 503, nothing recorded.
    let filler = fillDisk(mountPoint!);
    answers.push(await submit('on a full disk'));
    expect(answers[1].status).toBe(503);
    rmSync(filler);

    // The disk fills while the provider takes the task: its acceptance cannot be written at once.
    alpha.inject('generate', { delayMs: 1500 }, 1);
    const generates = alpha.calls('generate').length;
    const pending = submit('the disk fills while the provider takes it');
    await until('another generate call', () => alpha.calls('generate').length, { done: (calls) => calls > generates, timeoutMs: 20_000 });
    filler = fillDisk(mountPoint!);
    answers.push(await pending);
    rmSync(filler);

    answers.push(await submit('after'));
    await settle();
    await expectOnlyAcknowledgedCharged(answers);
  });
});
