/**
 * `table[key]` for a key a client (or a provider) chose: only the table's own entries, never what
 * every object inherits (`__proto__`, `constructor`, `toString`...).
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
