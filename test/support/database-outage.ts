import { alphaChannelBody, AlphaEmulatorServer, startAlphaEmulator } from './alpha-emulator';
import { ADMIN_TOKEN, startGateway, TestGateway } from './gateway';
import { freshProxiedDatabase, TcpProxy } from './tcp-proxy';
import type { DatabaseKind, FreshDatabase } from './test-databases';
import { until } from './until';

/** What a request to a gateway got while its database was away (or after). */
export interface OutageAnswer {
  status: number;
  retryAfter: string | null;
  /** The JSON body; null for one that is not JSON (/metrics). */
  body: any;
}

export type GatewayCall = (method: string, path: string, body?: unknown) => Promise<OutageAnswer>;

/**
 * Requests to the gateway `target()` names, as the customer (with the admin token on /api/admin),
 * each given up after `answerWithinMs`: far above what a bounded answer needs, far below a hang.
 */
export function gatewayCaller(target: () => { url: string; key: string }, answerWithinMs = 8000): GatewayCall {
  return async (method, path, body) => {
    const { url, key } = target();
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${path.startsWith('/api/admin') ? ADMIN_TOKEN : key}`,
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(answerWithinMs),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* /metrics is text */
    }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: json };
  };
}

/** The pool reconnects on its own: waits until /health answers 200 again (within `withinMs`). */
export async function waitUntilHealthy(call: GatewayCall, withinMs = 20_000): Promise<void> {
  await until('the gateway to recover (/health 200)', () => call('GET', '/health').catch(() => ({ status: 0 })), {
    done: (health) => health.status === 200,
    timeoutMs: withinMs,
    everyMs: 250,
  });
}

/** A gateway on a fresh database it reaches through a proxy the test can cut or freeze, with a channel on a fake family A. */
export interface GatewayBehindProxy {
  /** The database around the proxy: the test's own queries. */
  database: FreshDatabase;
  proxy: TcpProxy;
  gateway: TestGateway;
  alpha: AlphaEmulatorServer;
  /** Thaws the proxy, then closes everything and drops the database. */
  close(): Promise<void>;
}

export async function startGatewayBehindProxy(kind: DatabaseKind, env: Record<string, string>): Promise<GatewayBehindProxy> {
  const { database, proxy, proxied } = await freshProxiedDatabase(kind);
  let gateway: TestGateway | undefined;
  let alpha: AlphaEmulatorServer | undefined;
  const close = async () => {
    proxy.thaw();
    await gateway?.close();
    await proxy.close();
    await alpha?.close();
    await database.drop();
  };
  try {
    gateway = await startGateway(kind, env, proxied);
    alpha = await startAlphaEmulator();
    await gateway.createChannel(alphaChannelBody(alpha));
    return { database, proxy, gateway, alpha, close };
  } catch (error) {
    await close();
    throw error;
  }
}
