/**
 * A provider's signing keys, read once and kept (`ttlMs`) per source (a channel, a JWKS URL): a
 * callback costs no call to the provider but the first. A failed read is not kept.
 */
export class CachedKeys<K> {
  private readonly kept = new Map<string, { keys: Promise<K>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(source: string, read: () => Promise<K>): Promise<K> {
    const cached = this.kept.get(source);
    if (cached && cached.until > this.now()) return cached.keys;
    const keys = read();
    this.kept.set(source, { keys, until: this.now() + this.ttlMs });
    keys.catch(() => this.kept.delete(source));
    return keys;
  }
}
