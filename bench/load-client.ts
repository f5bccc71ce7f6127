/**
 * A small HTTP load generator, run as its own process so it does not share the gateway's event
 * loop: `concurrency` keep-alive workers send the same request for `durationMs` and it prints
 * requests per second, status counts and latency percentiles as one JSON line.
 */
import { Agent, request } from 'node:http';

interface LoadSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
}

const spec = JSON.parse(process.argv[2]) as LoadSpec;
const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency });
const latencies: number[] = [];
const statuses: Record<string, number> = {};

function once(): Promise<void> {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', () => {
      statuses.error = (statuses.error ?? 0) + 1;
      resolve();
    });
    req.end(spec.body);
  });
}

async function main(): Promise<void> {
  const deadline = Date.now() + spec.durationMs;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (Date.now() < deadline) await once();
    }),
  );
  const elapsed = Date.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 100) / 100;
  process.stdout.write(
    `${JSON.stringify({ requests: latencies.length, perSecond: Math.round((latencies.length / elapsed) * 1000), statuses, p50Ms: at(0.5), p99Ms: at(0.99) })}\n`,
  );
  agent.destroy();
}

void main();
