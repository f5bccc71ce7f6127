import { RunwayEmulatorServer, startRunwayEmulator } from './support/runway-emulator';
import { ADMIN_TOKEN } from './support/gateway';
import { GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { until } from './support/until';
import { admin, call, crashTestEnv, customer } from './support/process-api';
import { describeEachDatabase, FreshDatabase, freshDatabase } from './support/test-databases';

const QUOTA = 1_000_000;

jest.setTimeout(240_000);

/**
 * kill -9 while a cancel is at the provider (issue 35, finding 1): the restarted gateway takes the
 * task over once the cancel's lease runs out and reads the provider's answer, a task it cancelled
 * (CANCELLED) or took away (a finished one deleted: 404), as that cancel: failed `cancelled`,
 * refunded once, within seconds, never after TASK_TIMEOUT_MS as `upstream timeout`.
 */
describeEachDatabase('task cancel interrupted by kill -9', (kind) => {
  let database: FreshDatabase;
  let runway: RunwayEmulatorServer;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    runway = await startRunwayEmulator();
  });
  afterAll(async () => {
    await gateway?.crash();
    await runway?.close();
    await database?.drop();
  });

  it('restarted, it ends both cancels from the provider: one cancelled upstream, one finished and deleted by the cancel', async () => {
    gateway = await startGatewayProcess(crashTestEnv(database));
    const channel = { name: 'runway', platform: 'runway', base_url: runway.url, api_key: runway.apiKey, models: ['gen4.5'] };
    expect((await call(gateway, ADMIN_TOKEN, 'POST', '/api/admin/channels', channel)).status).toBe(201);
    const { userId, key } = await customer(gateway, { quota: QUOTA });

    const submit = async () => {
      runway.scriptNext(['RUNNING']);
      const res = await call(gateway!, key, 'POST', '/v1/videos', { model: 'gen4.5', prompt: 'waves', seconds: '6', size: '720x1280' });
      expect(res.status).toBe(200);
      return { taskId: res.body.id as string, upstreamId: runway.taskIds().at(-1)! };
    };
    const running = await submit();
    const finishing = await submit();

    // Both cancels reach the provider, which holds its answers; meanwhile it finishes one of the two tasks.
    const release = runway.holdDeletes();
    const cancels = [running, finishing].map(({ taskId }) => call(gateway!, key, 'POST', `/v1/videos/${taskId}/cancel`).catch(() => null));
    await until('both DELETEs at the provider', () => runway.deletes().length, { done: (deletes) => deletes === 2 });
    await runway.finish(finishing.upstreamId);
    await gateway.crash();
    gateway = undefined;
    await Promise.all(cancels);
    release();
    // The provider carries the DELETEs out: it cancels the running task and deletes the finished one.
    await until('the finished task deleted upstream', () => runway.hasTask(finishing.upstreamId), { done: (held) => !held });

    gateway = await startGatewayProcess(crashTestEnv(database));
    for (const { taskId } of [finishing, running]) {
      const task = await until(`task ${taskId} ended`, async () => {
        const res = await call(gateway!, key, 'GET', `/v1/videos/${taskId}`);
        return res.body?.status === 'failed' ? res.body : undefined;
      });
      expect(task.error).toEqual({ code: 'cancelled', message: 'cancelled by the client' });
    }
    const user = await admin(gateway, 'GET', `/api/admin/users/${userId}`);
    expect({ quota: user.quota, used_quota: user.used_quota }).toEqual({ quota: QUOTA, used_quota: 0 });
    const logs = (await admin(gateway, 'GET', `/api/admin/logs?user_id=${userId}&page_size=100`)).data as Array<{ type: string }>;
    expect(logs.map((log) => log.type).sort()).toEqual(['consume', 'consume', 'refund', 'refund', 'topup']);
  });
});
