import { createServer, Server, Socket } from 'node:net';
import { expectOneLine, freePort, runToExit } from './support/gateway-process';
import { describeOnSqlite, FreshDatabase, freshDatabase } from './support/test-databases';

/** A TCP server that accepts connections and never answers: a Redis behind a blackhole. */
async function startBlackhole(): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * REDIS_URL set but no Redis there (nothing listening, or a blackhole that accepts and never answers):
 * the start stops with one line naming REDIS_URL and where it looked, and exit code 1, as a database
 * that does not answer does. (Redis lost after the start is survived: test/redis-hang.e2e-spec.ts.)
 */
describeOnSqlite('REDIS_URL without a Redis behind it', (kind) => {
  let database: FreshDatabase;
  let blackhole: Awaited<ReturnType<typeof startBlackhole>>;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    blackhole = await startBlackhole();
  });
  afterAll(async () => {
    blackhole?.close();
    await database?.drop();
  });

  const cases: Array<[string, () => Promise<number>]> = [
    ['nothing listens at REDIS_URL', () => freePort()],
    ['a blackhole at REDIS_URL', () => Promise.resolve(blackhole.port)],
  ];

  for (const [what, portOf] of cases) {
    it(`${what}: the start stops with one line naming REDIS_URL`, async () => {
      const port = await portOf();
      const { code, output } = await runToExit({ DATABASE_URL: database.url, REDIS_URL: `redis://:secret-pass@127.0.0.1:${port}` });
      expectOneLine(code, output, new RegExp(`^REDIS_URL: no Redis answers at 127\\.0\\.0\\.1:${port}: .*unset REDIS_URL`));
      expect(output).not.toContain('secret-pass');
    }, 180_000);
  }
});
