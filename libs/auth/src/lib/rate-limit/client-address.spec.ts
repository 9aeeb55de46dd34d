import { countedAddress } from './client-address';

describe('countedAddress', () => {
  it.each([
    ['an IPv4 address', '203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv6 address, by its /64', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['a compressed IPv6 address', '2001:db8::1', '2001:db8::/64'],
    ['the IPv6 loopback', '::1', '::/64'],
  ])('counts %s (%s) as %s', (_case, address, counted) => {
    expect(countedAddress(address)).toBe(counted);
  });

  it('counts two hosts of one IPv6 /64 together, and of two /64s apart', () => {
    expect(countedAddress('2001:db8:0:1::a')).toBe(countedAddress('2001:db8:0:1:ffff::b'));
    expect(countedAddress('2001:db8:0:1::a')).not.toBe(countedAddress('2001:db8:0:2::a'));
  });
});
