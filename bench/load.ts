import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface LoadResult {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the measured process (the spec's `cpuPid`) per request, in microseconds. */
  cpuUsPerRequest?: number;
  /** CPU time of the load client itself per request, in microseconds. */
  clientCpuUsPerRequest: number;
}

/** Runs bench/load-client.ts in its own process (so it shares no event loop with what it measures). */
export function load(spec: object): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, 'load-client.ts'), JSON.stringify(spec)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exited ${code}`))));
  });
}
