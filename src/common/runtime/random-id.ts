import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** CSPRNG bytes fetched 4 KiB at a time (as Node's randomUUID buffers its own): one system call per many ids, each byte used once. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function takeRandomBytes(count: number): Buffer {
  if (poolOffset + count > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, count));
    poolOffset = 0;
  }
  poolOffset += count;
  return pool.subarray(poolOffset - count, poolOffset);
}

/** Uniformly random base62 text from the CSPRNG (rejection sampling avoids modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of takeRandomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export const newTaskId = (): string => `task_${randomBase62(32)}`;
export const newApiKey = (): string => `sk-${randomBase62(48)}`;
export const newUuid = (): string => randomUUID();
