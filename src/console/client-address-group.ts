import ipaddr from 'ipaddr.js';

/**
 * What the sign-in throttle counts a client address under: an IPv4 address as itself (also when
 * IPv4-mapped), an IPv6 address by its /64, the smallest block a single subscriber is usually given.
 */
export function clientAddressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${parts.map((part) => part.toString(16)).join(':')}::`).toString()}/64`;
}
