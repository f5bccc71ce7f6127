import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Mounts a small tmpfs of the test's own (root only); null, saying why, where mounting is not permitted. */
export function mountSmallDisk(megabytes: number, prefix: string): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (error) {
    rmdirSync(dir);
    console.warn(`full-disk test SKIPPED: cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})`);
    return null;
  }
}

/** Fills the disk to the last byte; returns the filler's path (remove it to free the space). */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
