/**
 * Rows that change rarely but are read on every submit (the enabled channels, prices), kept for a
 * short while. The service that writes them clears the cache at once on this instance; another
 * instance sees a change within `ttlMs`. Concurrent misses share one load; a failed load is not kept.
 * Cached values are shared: callers must not change them.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = load();
    this.entries.set(key, { value, until: now + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** After a write: the next read loads again (a load already under way is dropped too). */
  clear(): void {
    this.entries.clear();
  }
}

/** How long another instance may go on using a channel list or price it has read (this one clears at once). */
export const SHARED_ROWS_TTL_MS = 1000;
