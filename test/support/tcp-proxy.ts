import { createServer, connect, Server, Socket } from 'node:net';
import { DatabaseKind, FreshDatabase, freshDatabase } from './test-databases';

/** A loopback TCP proxy a test can cut (refuse and reset) or freeze (accept, then forward nothing). */
export interface TcpProxy {
  port: number;
  /** Resets every open connection and refuses new ones. */
  kill(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Keeps connections open but forwards no byte either way, like a hung server. */
  freeze(): void;
  /**
   * Freezes right after forwarding the first client chunk for which `matches` is true (given the
   * chunk and the client socket it came from): the server gets it, its answer is held back.
   */
  freezeAfter(matches: (chunk: Buffer, client: Socket) => boolean): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  /** Bytes held back while frozen, delivered in order on thaw. */
  const held: Array<{ to: Socket; chunk: Buffer }> = [];
  let frozen = false;
  let trigger: ((chunk: Buffer, client: Socket) => boolean) | null = null;
  let server: Server;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const relay = (from: Socket, to: Socket, client?: Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (frozen) return void held.push({ to, chunk });
      to.write(chunk);
      if (client && trigger?.(chunk, client)) {
        trigger = null;
        frozen = true;
      }
    });
  const forward = (client: Socket, upstream: Socket) => {
    relay(client, upstream, client);
    relay(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('close', end);
    upstream.once('close', end);
  };
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        track(client);
        const upstream = connect(targetPort, targetHost);
        track(upstream);
        forward(client, upstream);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });

  const port = await listen(0);
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    async kill() {
      const closed = closeServer();
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
    async restore() {
      await listen(port);
    },
    freeze() {
      frozen = true;
    },
    freezeAfter(matches) {
      trigger = matches;
    },
    thaw() {
      frozen = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    async close() {
      const closed = closeServer();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/**
 * A fresh database whose server a gateway reaches through a proxy the test can cut or freeze:
 * `database` is the way in around the proxy (the test's own queries, `drop()`), `proxied` the same
 * database through the proxy (a gateway's).
 */
export async function freshProxiedDatabase(
  kind: DatabaseKind,
): Promise<{ database: FreshDatabase; proxy: TcpProxy; proxied: FreshDatabase }> {
  const database = await freshDatabase(kind);
  const direct = new URL(database.url);
  const proxy = await startTcpProxy('127.0.0.1', Number(direct.port || DEFAULT_PORTS[kind]));
  const proxied = new URL(database.url);
  proxied.port = String(proxy.port);
  return { database, proxy, proxied: { ...database, url: proxied.toString() } };
}

const DEFAULT_PORTS: Record<DatabaseKind, number> = { mysql: 3306, postgres: 5432, sqlite: 0 };
