/**
 * Content benchmark: GET /v1/videos/{id}/content of a 1 GiB video, side by side with
 * - a direct read: the file itself (store case) or the upstream's own answer (proxied case);
 * - the bare floor: a plain `node:http` process streaming the same file, or relaying the same
 *   upstream (bench/content-floor-server.ts).
 * Every read is curl in its own process. The gateway runs built (`dist/main.js`) in its own process,
 * so its peak RSS (VmHWM) is its own. Rounds alternate; the best of each counts (the machine may be busy).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../src/config/app-config';
import { ServerSecret } from '../src/database/server-secret.service';
import { sqliteDriver } from '../src/database/sqlite-driver';
import { VideoObjectKeys } from '../src/storage/video-object-keys';
import { freePort } from '../test/support/gateway-process';
import { startBenchServer } from './upstream-process';

const ROOT = join(__dirname, '..');
const ADMIN = 'bench-admin-token-0123456789';
const SECRET = 'bench-server-secret-0123456789abcdef0123456789';
const MiB = 1024 * 1024;

export interface ReadComparison {
  directMiBps: number;
  floorMiBps: number;
  contentMiBps: number;
  /** Gateway / direct read. */
  ratio: number;
  /** Gateway / bare floor. */
  floorRatio: number;
}

export interface ContentBenchResult {
  bytes: number;
  /** The file not in the page cache before each read: the disk's speed, what "streaming at disk speed" means. */
  cold: ReadComparison;
  /** The file in the page cache: memory speed, where the HTTP path's copies show. */
  warm: ReadComparison;
  /** Not archived yet: relayed from an upstream serving the file from the page cache. */
  proxied: ReadComparison;
  /** Peak RSS after the store reads only (the proxied relay comes last). */
  gatewayPeakRssStoreMiB: number;
  gatewayPeakRssMiB: number;
  gatewayRssBeforeMiB: number;
}

/** A file of `bytes` that starts like an MP4 (an `ftyp` box), written in 1 MiB chunks. */
async function writeVideo(path: string, bytes: number): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const chunk = randomBytes(MiB);
  Buffer.from([0, 0, 0, 24]).copy(chunk, 0);
  Buffer.from('ftypisom').copy(chunk, 4);
  const out = createWriteStream(path);
  for (let written = 0; written < bytes; written += MiB) {
    if (!out.write(chunk.subarray(0, Math.min(MiB, bytes - written))))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/**
 * Reads a URL to its end with curl in its own process, as a download client would: `file://` is the
 * direct read of the file, `http://` the gateway's /content. One client for both, so the only
 * difference is the gateway. Seconds and bytes as curl measured them.
 */
function curlRead(url: string, headers: string[] = []): Promise<{ seconds: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const args = [
      '-s',
      '-f',
      '-o',
      '/dev/null',
      '-w',
      '%{size_download} %{time_total}',
      ...headers.flatMap((header) => ['-H', header]),
      url,
    ];
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const [bytes, seconds] = out.trim().split(' ').map(Number);
      if (code === 0) resolve({ bytes, seconds });
      else reject(new Error(`curl ${url} exited ${code}`));
    });
  });
}

/** Drops the file's pages from the page cache (GNU dd's `nocache`: posix_fadvise DONTNEED), so the next read comes from disk. */
function evict(path: string): void {
  if (spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' }).status !== 0)
    throw new Error('dd iflag=nocache failed');
}

function peakRssMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(field));
  return Math.round(Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024);
}

export async function runContentBench(bytes = 1024 * MiB, rounds = 3): Promise<ContentBenchResult> {
  if (spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('npm run build failed');
  const dir = mkdtempSync(join(tmpdir(), 'gw-content-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    VIDEO_STORE: `file:${join(dir, 'videos')}`,
    SERVER_SECRET: SECRET,
    ADMIN_TOKEN: ADMIN,
    SIMULATOR: 'off',
    TASK_SYNC_INTERVAL_MS: '0',
    LOG_LEVEL: 'warn',
    MEDIA_ALLOW_PRIVATE_HOSTS: 'true', // the proxied task's upstream is on loopback
    PORT: String(port),
  };
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const servers: Array<{ stop: () => void }> = [];
  try {
    for (let tries = 0; ; tries++) {
      const healthy = await fetch(`${base}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (healthy) break;
      if (tries > 150) throw new Error('the gateway did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const admin = (path: string, body: object) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((res) => res.json());
    const user = await admin('/api/admin/users', { username: 'bench' });
    const { key } = await admin(`/api/admin/users/${user.id}/keys`, { name: 'bench' });

    // An archived task whose copy is the 1 GiB file, at the key the gateway derives from the secret.
    const taskId = `task_${randomBytes(16).toString('hex')}`;
    const secret = new ServerSecret({ serverSecret: SECRET } as AppConfig, null as never);
    await secret.onModuleInit();
    const path = join(dir, 'videos', new VideoObjectKeys(secret).video(taskId));
    await writeVideo(path, bytes);
    const now = Date.now();
    type Sqlite = { prepare(sql: string): { run(...values: unknown[]): void }; close(): void };
    const Database = sqliteDriver() as new (path: string) => Sqlite;
    const db = new Database(join(dir, 'bench.sqlite'));
    // The same video twice: archived in the store, and not archived (relayed from the upstream that has it).
    const upstream = await startBenchServer('content-floor-server.ts', { CONTENT_FILE: path });
    const storeFloor = await startBenchServer('content-floor-server.ts', { CONTENT_FILE: path });
    const proxyFloor = await startBenchServer('content-floor-server.ts', { CONTENT_UPSTREAM: `${upstream.url}/video.mp4` });
    servers.push(upstream, storeFloor, proxyFloor);
    const proxiedTaskId = `task_${randomBytes(16).toString('hex')}`;
    const insert = db.prepare(
      `INSERT INTO tasks (task_id, user_id, user_group, platform, model, upstream_model, action, status, progress, quota, request, poll_failures,
        created_at, updated_at, finish_time, result_url)
       VALUES (?, ?, 'default', 'alpha', 'alpha/v6', 'v6', 'textGenerate', 'SUCCESS', 100, 0, '{}', 0, ?, ?, ?, ?)`,
    );
    insert.run(taskId, user.id, now, now, now, null);
    insert.run(proxiedTaskId, user.id, now, now, now, `${upstream.url}/video.mp4`);
    // The archived one's copy, as the video store records it.
    db.prepare(
      "INSERT INTO video_archives (task_row_id, status, size, archived_at, failures) SELECT id, 'archived', ?, ?, 0 FROM tasks WHERE task_id = ?",
    ).run(bytes, now, taskId);
    db.close();

    const content = (id: string) => curlRead(`${base}/v1/videos/${id}/content`, [`Authorization: Bearer ${key}`]);
    const rssBefore = peakRssMiB(child.pid!, 'VmRSS');
    // Alternating rounds, best of each (the machine may be busy); cold ones evict the file before each read.
    const compare = async (reads: Array<() => Promise<{ seconds: number; bytes: number }>>, cold: boolean): Promise<ReadComparison> => {
      const best = reads.map(() => Infinity);
      for (let round = 0; round < rounds; round++) {
        for (const [index, read] of reads.entries()) {
          if (cold) evict(path);
          const r = await read();
          if (r.bytes !== bytes) throw new Error(`read ${r.bytes} of ${bytes} bytes`);
          best[index] = Math.min(best[index], r.seconds);
        }
      }
      const [directMiBps, floorMiBps, contentMiBps] = best.map((seconds) => Math.round(bytes / MiB / seconds));
      const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
      return {
        directMiBps,
        floorMiBps,
        contentMiBps,
        ratio: ratio(contentMiBps, directMiBps),
        floorRatio: ratio(contentMiBps, floorMiBps),
      };
    };
    const storeReads = [() => curlRead(`file://${path}`), () => curlRead(storeFloor.url), () => content(taskId)];
    const cold = await compare(storeReads, true);
    const warm = await compare(storeReads, false);
    const storePeak = peakRssMiB(child.pid!, 'VmHWM');
    const proxied = await compare(
      [() => curlRead(`${upstream.url}/video.mp4`), () => curlRead(proxyFloor.url), () => content(proxiedTaskId)],
      false,
    );
    return {
      bytes,
      cold,
      warm,
      proxied,
      gatewayPeakRssStoreMiB: storePeak,
      gatewayPeakRssMiB: peakRssMiB(child.pid!, 'VmHWM'),
      gatewayRssBeforeMiB: rssBefore,
    };
  } finally {
    for (const server of servers) server.stop();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
