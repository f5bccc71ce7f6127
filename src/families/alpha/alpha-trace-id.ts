import { createHash } from 'node:crypto';

/** A fixed namespace so trace ids never collide with other name-based UUIDs. */
const NAMESPACE = 'video-gateway/alpha/ai-trace-id';

/**
 * A name-based (version 5 layout) UUID for `Ai-trace-id`. The provider de-duplicates on it, so a
 * submit derives it from the public task id: resubmitting the same task returns the earlier result.
 */
export function deterministicTraceId(...parts: Array<string | number>): string {
  const hash = createHash('sha1')
    .update(`${NAMESPACE}\n${parts.join('\n')}`)
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
