import { clientAddressGroup } from './client-address-group';

describe('clientAddressGroup', () => {
  it('keeps IPv4 addresses, also IPv4-mapped ones, as they are', () => {
    expect(clientAddressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    expect(clientAddressGroup('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientAddressGroup('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientAddressGroup('2001:db8:1:3::a')).toBe('2001:db8:1:3::/64');
    expect(clientAddressGroup('::1')).toBe('::/64');
  });

  it('leaves anything else alone', () => {
    expect(clientAddressGroup('unknown')).toBe('unknown');
  });
});
