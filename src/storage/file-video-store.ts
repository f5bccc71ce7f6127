import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, VideoStore } from './video-store';

/** Big reads: a video streams at disk speed with few syscalls. */
const READ_CHUNK = 1024 * 1024;

/**
 * The embedded store: one file per object under a directory. A write goes to `tmp/` first and is
 * renamed into place once complete (atomic on one file system), so a crash never leaves a partial
 * object under its key; a leftover temp file of a crashed write is removed by the next write of the key.
 */
export class FileVideoStore implements VideoStore {
  readonly kind = 'file' as const;
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  async write(key: string, body: Readable, _contentType: string): Promise<number> {
    const { path, temp } = await this.prepare(key);
    let bytes = 0;
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'w' }));
      await rename(temp, path);
      return bytes;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async writeSmall(key: string, bytes: Buffer): Promise<void> {
    const { path, temp } = await this.prepare(key);
    await writeFile(temp, bytes);
    await rename(temp, path);
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), {
      highWaterMark: READ_CHUNK,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
    // Opening errors (a missing file) surface here, before any header is sent.
    await new Promise<void>((done, fail) => stream.once('open', () => done()).once('error', fail));
    return stream;
  }

  async size(key: string): Promise<number> {
    return (await stat(this.pathOf(key))).size;
  }

  async locate(key: string): Promise<string> {
    return this.pathOf(key);
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!/^[a-z0-9][a-z0-9/._-]*$/.test(key) || key.includes('..')) throw new Error(`invalid store key`);
    return join(this.root, key);
  }

  private async prepare(key: string): Promise<{ path: string; temp: string }> {
    const path = this.pathOf(key);
    const temp = join(this.root, 'tmp', `${key.replace(/\//g, '_')}.${randomBytes(6).toString('hex')}.part`);
    await mkdir(dirname(path), { recursive: true });
    await mkdir(dirname(temp), { recursive: true });
    await this.removeLeftovers(key);
    return { path, temp };
  }

  /** Temp files of earlier, crashed writes of this key (the lease says no one else writes it now). */
  private async removeLeftovers(key: string): Promise<void> {
    const prefix = `${key.replace(/\//g, '_')}.`;
    const names = await readdir(join(this.root, 'tmp')).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && name.endsWith('.part'))
        .map((name) => rm(join(this.root, 'tmp', name), { force: true })),
    );
  }
}
