import { ChildProcess, spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { until } from './until';

/** Milliseconds until `check` holds (polled every 25 ms), or throws after `timeoutMs`. */
export async function timeUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  await until(what, check, { timeoutMs, everyMs: 25 });
  return Date.now() - started;
}

/** True when something accepts TCP connections at the URL's host and port. */
export const reachable = (url: string): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = new Socket();
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(Number(port || 6379), hostname);
  });

/** A throwaway redis-server of a test's own (never the machine's, which others share): no persistence. */
export async function startOwnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await timeUntil(() => reachable(`redis://127.0.0.1:${port}`), 10_000, 'own redis-server listening');
  return child;
}

export async function stopOwnRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A frozen (SIGSTOPped) server takes SIGKILL too.
  child.kill('SIGKILL');
  await exited;
}
