/**
 * The benchmarks' HTTP load generator, run as a process of its own so it shares no event loop with
 * what it measures, and made to load a server the way autocannon does: `concurrency` keep-alive
 * connections, each sending its next request as soon as the previous answer has been read (one at a
 * time, no pipelining), the request's bytes built once, answers read with a minimal HTTP/1.1 parser
 * (status line, Content-Length or chunked). Node's own HTTP client (`http.request` with an Agent)
 * costs more CPU per request than the bare floor it measures: on 2 cores it held the floor to its
 * own pace, and the gateway-to-floor ratios it gave were far above an outside client's.
 *
 * The clock starts once every connection is open. With `cpuPid` it also reads that process's CPU
 * time (utime + stime in /proc/<pid>/stat, every thread of it) at the start and once the last answer
 * is in, so the server's CPU per request covers exactly the requests counted. Prints one JSON line:
 * requests, requests per second, status counts, latency p50/p99, and CPU microseconds per request of
 * the server and of this client.
 */
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

interface LoadSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  durationMs: number;
  /** The process whose CPU time per request is reported (the server under load). */
  cpuPid?: number;
}

const spec = JSON.parse(process.argv[2]) as LoadSpec;
const target = new URL(spec.url);
const port = Number(target.port || 80);
const host = target.hostname;
const isHead = spec.method === 'HEAD';

/** The request, once: what autocannon sends (request line, Host, the given headers, a Content-Length with a body). */
const requestBytes = (() => {
  const body = spec.body === undefined ? undefined : Buffer.from(spec.body);
  let head = `${spec.method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n`;
  for (const [name, value] of Object.entries(spec.headers)) head += `${name}: ${value}\r\n`;
  if (body) head += `Content-Length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
})();

const latencies: number[] = [];
const statuses: Record<string, number> = {};
let deadline = Infinity;
let lastAnswerAt = 0;

/** User plus system CPU time of a process so far, in microseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function processCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** One keep-alive connection sending the request again each time an answer is complete. */
class Connection {
  private socket!: Socket;
  private pending: Buffer = Buffer.alloc(0);
  private sentAt = 0;
  /** Body bytes still expected (Content-Length), or -1 while reading chunks, or null while reading the head. */
  private remaining: number | null = null;
  private status = 0;
  private closeAfter = false;
  private done!: () => void;
  readonly finished = new Promise<void>((resolve) => (this.done = resolve));

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket = connect({ host, port, noDelay: true }, () => resolve());
      this.socket.once('error', reject);
      this.attach();
    });
  }

  start(): void {
    this.send();
  }

  private attach(): void {
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      if (this.remaining !== null || this.sentAt !== 0) {
        // Cut mid-answer: counted as an error, then a new connection while there is time.
        statuses.error = (statuses.error ?? 0) + 1;
        this.reset();
      }
      if (performance.now() >= deadline) return this.done();
      this.socket = connect({ host, port, noDelay: true }, () => this.send());
      this.attach();
    });
  }

  private reset(): void {
    this.pending = Buffer.alloc(0);
    this.remaining = null;
    this.sentAt = 0;
    this.closeAfter = false;
  }

  private send(): void {
    if (performance.now() >= deadline) {
      this.socket.end();
      this.done();
      return;
    }
    this.sentAt = performance.now();
    this.socket.write(requestBytes);
  }

  private read(chunk: Buffer): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.remaining === null) {
        const end = data.indexOf(HEAD_END);
        if (end === -1) break;
        const head = data.toString('latin1', 0, end).toLowerCase();
        this.status = Number(head.slice(9, 12));
        this.closeAfter = /\r\nconnection:\s*close/.test(head);
        const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
        const bodyless = isHead || this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200);
        this.remaining = bodyless ? 0 : /\r\ntransfer-encoding:[^\r]*chunked/.test(head) ? -1 : length ? Number(length[1]) : 0;
        data = data.subarray(end + 4);
      }
      if (this.remaining === -1) {
        // Chunked: skip whole chunks; the last one (size 0, no trailers) ends the answer.
        const lineEnd = data.indexOf(CRLF);
        if (lineEnd === -1) break;
        const size = parseInt(data.toString('latin1', 0, lineEnd), 16);
        if (data.length < lineEnd + 2 + size + 2) break;
        data = data.subarray(lineEnd + 2 + size + 2);
        if (size !== 0) continue;
        this.remaining = 0;
      } else if (this.remaining > 0) {
        const taken = Math.min(this.remaining, data.length);
        this.remaining -= taken;
        data = data.subarray(taken);
        if (this.remaining > 0) break;
      }
      this.answered();
      if (this.closeAfter) {
        this.reset();
        this.socket.destroy();
        return;
      }
      this.remaining = null;
      this.send();
      if (data.length === 0) break;
    }
    this.pending = data.length > 0 ? Buffer.from(data) : Buffer.alloc(0);
  }

  private answered(): void {
    const now = performance.now();
    latencies.push(now - this.sentAt);
    statuses[this.status] = (statuses[this.status] ?? 0) + 1;
    this.sentAt = 0;
    lastAnswerAt = now;
  }
}

async function main(): Promise<void> {
  const connections = Array.from({ length: spec.concurrency }, () => new Connection());
  await Promise.all(connections.map((connection) => connection.open()));
  const serverBefore = spec.cpuPid ? processCpuUs(spec.cpuPid) : 0;
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  deadline = started + spec.durationMs;
  for (const connection of connections) connection.start();
  await Promise.all(connections.map((connection) => connection.finished));
  const client = process.cpuUsage(clientBefore);
  const serverCpuUs = spec.cpuPid ? processCpuUs(spec.cpuPid) - serverBefore : undefined;
  const elapsedMs = Math.max(1, lastAnswerAt - started);
  const requests = latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 100) / 100;
  const perRequest = (us: number) => Math.round(us / Math.max(1, requests));
  process.stdout.write(
    `${JSON.stringify({
      requests,
      perSecond: Math.round((requests / elapsedMs) * 1000),
      statuses,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      ...(serverCpuUs === undefined ? {} : { cpuUsPerRequest: perRequest(serverCpuUs) }),
      clientCpuUsPerRequest: perRequest(client.user + client.system),
    })}\n`,
  );
  process.exit(0);
}

main().catch((error: Error) => {
  process.stderr.write(`load client: ${error.stack ?? error}\n`);
  process.exit(1);
});
