import { createServer, Server, Socket } from 'node:net';
import { ADMIN_TOKEN } from './support/gateway';
import { freePort, GatewayProcess, startGatewayProcess } from './support/gateway-process';
import { timeUntil } from './support/own-redis';
import { describeOnSqlite, FreshDatabase, freshDatabase } from './support/test-databases';

/** The README's promise: the gateway says so within seconds, and Ctrl-C always ends it. */
const SAYS_SO_BOUND_MS = 5_000;
const SHUTDOWN_BOUND_MS = 10_000;

/** A TCP server that accepts connections and never answers: a Redis behind a blackhole. */
async function startBlackhole(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Resolves 'exited' when the process ends within `ms` of the signals, otherwise 'still running'. */
function exitsWithin(gateway: GatewayProcess, signals: NodeJS.Signals[], ms: number): Promise<string> {
  const exited = new Promise<string>((resolve) => {
    if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) resolve('exited');
    gateway.child.once('exit', () => resolve('exited'));
  });
  for (const signal of signals) gateway.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  return Promise.race([exited, late]).finally(() => clearTimeout(timer));
}

const redisLines = (gateway: GatewayProcess) =>
  gateway
    .output()
    .split('\n')
    .filter((line) => line.includes('REDIS_URL'));

/**
 * REDIS_URL set but no Redis there (nothing listening, or a blackhole that accepts and never answers):
 * the gateway starts on in-process limits (the product's decision for several instances), says so in
 * one line naming REDIS_URL, and Ctrl-C or SIGTERM ends it within 10 s.
 */
describeOnSqlite('REDIS_URL without a Redis behind it', (kind) => {
  let database: FreshDatabase;
  let blackhole: Awaited<ReturnType<typeof startBlackhole>>;
  const processes: GatewayProcess[] = [];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    blackhole = await startBlackhole();
  });
  afterAll(async () => {
    for (const gateway of processes.splice(0))
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) await gateway.crash();
    blackhole?.close();
    await database?.drop();
  });

  const launch = async (redisUrl: string) => {
    const gateway = await startGatewayProcess({ DATABASE_URL: database.url, ADMIN_TOKEN, REDIS_URL: redisUrl, TASK_SYNC_INTERVAL_MS: '0' });
    processes.push(gateway);
    return gateway;
  };

  const cases: Array<[string, () => Promise<string>]> = [
    ['nothing listens at REDIS_URL', async () => `redis://127.0.0.1:${await freePort()}`],
    ['a blackhole at REDIS_URL', async () => blackhole.url],
  ];

  for (const [what, redisUrl] of cases) {
    it(`${what}: starts, says so in one line naming REDIS_URL, Ctrl-C ends it within 10 s`, async () => {
      const gateway = await launch(await redisUrl());
      await timeUntil(async () => redisLines(gateway).length > 0, SAYS_SO_BOUND_MS, 'a line naming REDIS_URL');
      expect(redisLines(gateway)).toEqual([expect.stringMatching(/REDIS_URL.*(per process|in process)/)]);
      expect((await fetch(`${gateway.url}/health`)).status).toBe(200);
      expect(await exitsWithin(gateway, ['SIGINT'], SHUTDOWN_BOUND_MS)).toBe('exited');
    }, 120_000);

    it(`${what}: Ctrl-C then SIGTERM ends it within 10 s`, async () => {
      const gateway = await launch(await redisUrl());
      expect(await exitsWithin(gateway, ['SIGINT', 'SIGTERM'], SHUTDOWN_BOUND_MS)).toBe('exited');
    }, 120_000);
  }
});
