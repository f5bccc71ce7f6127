import { BlockList, isIP } from 'node:net';

/** `1.2.3.4`, `2001:db8::1`, `10.0.0.0/8`, `2001:db8::/32`: true when `entry` is one of these. */
export function isAllowlistEntry(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/** An IPv4 client seen on a dual-stack socket (`::ffff:1.2.3.4`) is matched as IPv4. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

// Built once per allowlist (the cached key's array), so the hot path only matches.
const lists = new WeakMap<readonly string[], BlockList>();

function blockListOf(entries: readonly string[]): BlockList {
  let list = lists.get(entries);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      if (!isAllowlistEntry(entry)) continue;
      const [address, prefix] = entry.split('/');
      const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
    lists.set(entries, list);
  }
  return list;
}

/** Whether `address` (the client's, as TRUSTED_PROXIES lets express see it) is on the allowlist. */
export function isAddressAllowed(entries: readonly string[], address: string): boolean {
  const plain = plainAddress(address);
  const version = isIP(plain);
  if (!version) return false;
  return blockListOf(entries).check(plain, version === 4 ? 'ipv4' : 'ipv6');
}
