/**
 * Content benchmark: GET /v1/videos/{id}/content of a 1 GiB video from the gateway's file store,
 * side by side with a direct read of the same file (the disk's, or page cache's, floor), both read
 * by curl in its own process. The gateway runs built (`dist/main.js`) in its own process, so its
 * peak RSS (VmHWM) is its own. Rounds alternate; the best of each counts (the machine may be busy).
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

const ROOT = join(__dirname, '..');
const ADMIN = 'bench-admin-token-0123456789';
const SECRET = 'bench-server-secret-0123456789abcdef0123456789';
const MiB = 1024 * 1024;

export interface ReadComparison {
  directMiBps: number;
  contentMiBps: number;
  ratio: number;
}

export interface ContentBenchResult {
  bytes: number;
  /** The file not in the page cache before each read: the disk's speed, what "streaming at disk speed" means. */
  cold: ReadComparison;
  /** The file in the page cache: memory speed, where the HTTP path's copies show. */
  warm: ReadComparison;
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
    if (!out.write(chunk.subarray(0, Math.min(MiB, bytes - written)))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
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
    const args = ['-s', '-f', '-o', '/dev/null', '-w', '%{size_download} %{time_total}', ...headers.flatMap((header) => ['-H', header]), url];
    const child = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const [bytes, seconds] = out.trim().split(' ').map(Number);
      code === 0 ? resolve({ bytes, seconds }) : reject(new Error(`curl ${url} exited ${code}`));
    });
  });
}

/** Drops the file's pages from the page cache (GNU dd's `nocache`: posix_fadvise DONTNEED), so the next read comes from disk. */
function evict(path: string): void {
  if (spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' }).status !== 0) throw new Error('dd iflag=nocache failed');
}

const directRead = (path: string) => curlRead(`file://${path}`);
const contentRead = (url: string, key: string) => curlRead(url, [`Authorization: Bearer ${key}`]);

function peakRssMiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith(field));
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
    PORT: String(port),
  };
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries++) {
      const healthy = await fetch(`${base}/health`).then((res) => res.ok, () => false);
      if (healthy) break;
      if (tries > 150) throw new Error('the gateway did not start');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const admin = (path: string, body: object) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((res) => res.json());
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
    db.prepare(
      `INSERT INTO tasks (task_id, user_id, user_group, platform, model, upstream_model, action, status, progress, quota, request, poll_failures,
        created_at, updated_at, finish_time, archive_status, archive_size, archived_at, archive_failures)
       VALUES (?, ?, 'default', 'alpha', 'alpha/v6', 'v6', 'textGenerate', 'SUCCESS', 100, 0, '{}', 0, ?, ?, ?, 'archived', ?, ?, 0)`,
    ).run(taskId, user.id, now, now, now, bytes, now);
    db.close();

    const url = `${base}/v1/videos/${taskId}/content`;
    const rssBefore = peakRssMiB(child.pid!, 'VmRSS');
    // Alternating rounds, best of each (the machine may be busy); cold ones evict the file first.
    const compare = async (cold: boolean): Promise<ReadComparison> => {
      let direct = Infinity;
      let content = Infinity;
      for (let round = 0; round < rounds; round++) {
        if (cold) evict(path);
        const d = await directRead(path);
        if (cold) evict(path);
        const c = await contentRead(url, key);
        if (d.bytes !== bytes || c.bytes !== bytes) throw new Error(`read ${d.bytes} and ${c.bytes} of ${bytes} bytes`);
        direct = Math.min(direct, d.seconds);
        content = Math.min(content, c.seconds);
      }
      const directMiBps = Math.round(bytes / MiB / direct);
      const contentMiBps = Math.round(bytes / MiB / content);
      return { directMiBps, contentMiBps, ratio: Number((contentMiBps / directMiBps).toFixed(2)) };
    };
    const cold = await compare(true);
    const warm = await compare(false);
    return { bytes, cold, warm, gatewayPeakRssMiB: peakRssMiB(child.pid!, 'VmHWM'), gatewayRssBeforeMiB: rssBefore };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
