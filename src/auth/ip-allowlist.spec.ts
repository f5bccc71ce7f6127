import { isAddressAllowed, isAllowlistEntry } from './ip-allowlist';

describe('API key allowlist', () => {
  it.each(['203.0.113.7', '10.0.0.0/8', '0.0.0.0/0', '2001:db8::1', '2001:db8::/32', '::1', '::/0'])('takes %s', (entry) =>
    expect(isAllowlistEntry(entry)).toBe(true),
  );

  it.each(['', 'example.com', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/', '10.0.0.0/8/1', '10.0.0.0/-1', '1.2.3'])(
    'refuses %j',
    (entry) => expect(isAllowlistEntry(entry)).toBe(false),
  );

  it('matches addresses and networks of both families, an IPv4 client on a dual-stack socket as IPv4', () => {
    const list = ['203.0.113.0/24', '2001:db8::/32', '127.0.0.1'];
    expect(isAddressAllowed(list, '203.0.113.250')).toBe(true);
    expect(isAddressAllowed(list, '::ffff:203.0.113.9')).toBe(true);
    expect(isAddressAllowed(list, '2001:db8:5::1')).toBe(true);
    expect(isAddressAllowed(list, '127.0.0.1')).toBe(true);
    expect(isAddressAllowed(list, '203.0.114.1')).toBe(false);
    expect(isAddressAllowed(list, '2001:db9::1')).toBe(false);
    expect(isAddressAllowed(list, '::1')).toBe(false);
    expect(isAddressAllowed(list, '')).toBe(false);
  });
});
