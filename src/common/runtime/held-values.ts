/**
 * Values kept in memory while someone holds them (inputs staged for a submit): each hold hands back
 * a release, which lets go once however often it is called; the last release drops the value.
 */
export class HeldValues<T> {
  private readonly entries = new Map<string, { value: T; holders: number }>();

  /** Holds the value under `key` (the first holder's value stays while the key is held). */
  hold(key: string, value: T): () => void {
    const entry = this.entries.get(key) ?? { value, holders: 0 };
    entry.holders++;
    this.entries.set(key, entry);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--entry.holders <= 0) this.entries.delete(key);
    };
  }

  get(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }
}
