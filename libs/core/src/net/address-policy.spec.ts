import { describe, expect, it } from '@jest/globals';
import { AddressPolicy, type AddressVerdict } from './address-policy.js';

const DEFAULT = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: [] });
const PRIVATE = new AddressPolicy({ allowPrivateNetworks: true, allowedNetworks: [] });

/** 'allowed', or a pattern the refusal reason must match. */
type Expected = 'allowed' | RegExp;

function expectVerdict(verdict: AddressVerdict, expected: Expected): void {
  if (expected === 'allowed') {
    expect(verdict).toEqual({ allowed: true });
    return;
  }
  expect(verdict.allowed).toBe(false);
  expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(expected) });
}

describe('AddressPolicy (default: global unicast only)', () => {
  const table: ReadonlyArray<[string, Expected]> = [
    // Loopback, in every textual IPv4 form a URL parser or inet_aton accepts.
    ['127.0.0.1', /^127\.0\.0\.1 is a loopback address$/],
    ['127.1', /^127\.0\.0\.1 is a loopback address$/],
    ['0x7f.1', /^127\.0\.0\.1 is a loopback address$/],
    ['2130706433', /^127\.0\.0\.1 is a loopback address$/],
    ['017700000001', /^127\.0\.0\.1 is a loopback address$/],
    ['0177.0.0.1', /^127\.0\.0\.1 is a loopback address$/],
    ['0x7f000001', /^127\.0\.0\.1 is a loopback address$/],
    ['127.255.255.254', /loopback/],
    ['[127.0.0.1]', /loopback/],
    ['::1', /^::1 is a loopback address$/],
    ['[::1]', /^::1 is a loopback address$/],
    ['0:0:0:0:0:0:0:1', /^::1 is a loopback address$/],
    // IPv4-mapped IPv6: refused as such by default, whatever the IPv4 address.
    ['::ffff:127.0.0.1', /IPv4-mapped/],
    ['[::ffff:127.0.0.1]', /IPv4-mapped/],
    ['::ffff:7f00:1', /IPv4-mapped/],
    ['::ffff:10.0.0.1', /IPv4-mapped/],
    ['::ffff:8.8.8.8', /IPv4-mapped/],
    // IPv4-compatible IPv6 (::/96, deprecated) and the rest of ::/8: never global.
    ['[::7f00:1]', /^::7f00:1 is an IPv4-compatible or reserved IPv6 address \(::\/8\)$/],
    // (ipaddr.js reads the dotted form as IPv4-mapped; refused either way.)
    ['::127.0.0.1', /IPv4-mapped|IPv4-compatible/],
    ['::a00:1', /IPv4-compatible/],
    ['::808:808', /IPv4-compatible/],
    ['::1:0:0:1', /IPv4-compatible/],
    ['ff::1', /IPv4-compatible/],
    ['[::a9fe:a9fe]', /cloud metadata/],
    // Cloud metadata.
    ['169.254.169.254', /^169\.254\.169\.254 is a cloud metadata address$/],
    ['169.254.170.2', /cloud metadata/],
    ['169.254.169.123', /cloud metadata/],
    ['100.100.100.200', /cloud metadata/],
    ['192.0.0.192', /cloud metadata/],
    ['fd00:ec2::254', /^fd00:ec2::254 is a cloud metadata address$/],
    ['FD00:EC2:0::254', /^fd00:ec2::254 is a cloud metadata address$/],
    ['[fd00:ec2::254]', /cloud metadata/],
    ['::ffff:169.254.169.254', /cloud metadata/],
    ['2852039166', /cloud metadata/], // 169.254.169.254 as one number
    // Private, link-local, carrier-grade NAT, unique local.
    ['10.0.0.1', /^10\.0\.0\.1 is a private network address$/],
    ['10.255.255.255', /private network/],
    ['172.16.0.1', /private network/],
    ['172.31.255.255', /private network/],
    ['192.168.1.1', /private network/],
    ['169.254.1.1', /link-local/],
    ['fe80::1', /^fe80::1 is a link-local address$/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['100.100.100.201', /carrier-grade NAT/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    // Neither private nor public.
    ['0.0.0.0', /^0\.0\.0\.0 is the unspecified address$/],
    ['0.1.2.3', /unspecified/],
    ['::', /^:: is the unspecified address$/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['192.0.0.1', /reserved/],
    ['192.0.2.1', /reserved/],
    ['198.18.0.1', /reserved/],
    ['198.51.100.1', /reserved/],
    ['203.0.113.1', /reserved/],
    ['240.0.0.1', /reserved/],
    ['2001:db8::1', /reserved/],
    // IPv6 forms that carry an IPv4 address to somewhere else.
    ['64:ff9b::7f00:1', /NAT64/],
    ['64:ff9b::a9fe:a9fe', /NAT64/],
    ['2002:7f00:1::', /6to4/],
    ['2001::1', /Teredo/],
    // Global unicast.
    ['8.8.8.8', 'allowed'],
    ['1.1.1.1', 'allowed'],
    ['93.184.216.34', 'allowed'],
    ['172.32.0.1', 'allowed'],
    ['100.128.0.1', 'allowed'],
    ['11.0.0.1', 'allowed'],
    ['2606:4700:4700::1111', 'allowed'],
    ['[2606:4700:4700::1111]', 'allowed'],
    ['2001:4860:4860::8888', 'allowed'],
    // Host names and garbage: the policy judges addresses only.
    ['localhost', /^localhost is not an IP address$/],
    ['example.com', /^example\.com is not an IP address$/],
    ['metadata.google.internal', /not an IP address/],
    ['', /not an IP address/],
    ['256.1.1.1', /not an IP address/],
    ['1.2.3.4.5', /not an IP address/],
    [' 8.8.8.8', /not an IP address/],
    ['[::1', /not an IP address/],
  ];

  it('has a table of at least 40 addresses', () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
    expect(new Set(table.map(([host]) => host)).size).toBe(table.length);
  });

  it.each(table)('%j → %s', (host, expected) => {
    expectVerdict(DEFAULT.check(host), expected);
  });
});

describe('AddressPolicy.parse', () => {
  it.each([
    ['127.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['[::1]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['2606:4700:4700:0:0:0:0:1111', '2606:4700:4700::1111'],
  ])('%j is %s', (host, normalized) => {
    expect(AddressPolicy.parse(host)?.toString()).toBe(normalized);
  });

  it.each(['localhost', 'example.com', '', '[]', '1.2.3.4.5', '::ffff::1', 'http://127.0.0.1'])('%j is not an address', (host) => {
    expect(AddressPolicy.parse(host)).toBeNull();
  });
});

describe('AddressPolicy with allowPrivateNetworks', () => {
  it.each([
    '127.0.0.1',
    '127.1',
    '2130706433',
    '::1',
    '[::1]',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.1.1',
    'fe80::1',
    '100.64.0.1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:192.168.1.1',
    '::ffff:8.8.8.8',
    '8.8.8.8',
    '2606:4700:4700::1111',
  ])('allows %s', (host) => {
    expectVerdict(PRIVATE.check(host), 'allowed');
  });

  it.each([
    ['169.254.169.254', /cloud metadata/],
    ['169.254.170.2', /cloud metadata/],
    ['100.100.100.200', /cloud metadata/],
    ['192.0.0.192', /cloud metadata/],
    ['fd00:ec2::254', /cloud metadata/],
    ['::ffff:169.254.169.254', /cloud metadata/],
    ['::a9fe:a9fe', /cloud metadata/],
    ['::7f00:1', /IPv4-compatible/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['198.18.0.1', /reserved/],
    ['240.0.0.1', /reserved/],
    ['::ffff:198.18.0.1', /198\.18\.0\.1 is a reserved address/],
    ['::ffff:0.0.0.0', /unspecified/],
    ['64:ff9b::7f00:1', /NAT64/],
    ['2002:7f00:1::', /6to4/],
    ['localhost', /not an IP address/],
  ])('still refuses %s', (host, reason) => {
    expectVerdict(PRIVATE.check(host), reason);
  });
});

describe('AddressPolicy with allowedNetworks', () => {
  it('allows exactly the addresses of an IPv4 /32', () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['127.0.0.2/32'] });
    expectVerdict(policy.check('127.0.0.2'), 'allowed');
    expectVerdict(policy.check('127.0.0.1'), /loopback/);
    expectVerdict(policy.check('127.0.0.3'), /loopback/);
    expectVerdict(policy.check('::1'), /loopback/);
    expectVerdict(policy.check('10.0.0.1'), /private network/);
    // Still judged like any address outside the list.
    expectVerdict(policy.check('8.8.8.8'), 'allowed');
  });

  it('allows an IPv4 range, in any textual form, and nothing next to it', () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['10.20.0.0/16'] });
    expectVerdict(policy.check('10.20.0.1'), 'allowed');
    expectVerdict(policy.check('10.20.255.254'), 'allowed');
    expectVerdict(policy.check('0xa.20.0.1'), 'allowed');
    expectVerdict(policy.check('10.21.0.1'), /private network/);
    expectVerdict(policy.check('10.19.255.255'), /private network/);
  });

  it('allows an IPv6 range', () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['fd12:3456::/32'] });
    expectVerdict(policy.check('fd12:3456::1'), 'allowed');
    expectVerdict(policy.check('[fd12:3456:ffff::1]'), 'allowed');
    expectVerdict(policy.check('fd12:3457::1'), /unique local/);
    expectVerdict(policy.check('fc00::1'), /unique local/);
    expectVerdict(policy.check('10.0.0.1'), /private network/);
  });

  it('does not match IPv4 ranges against IPv6 addresses or the other way round', () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['::/0'] });
    expectVerdict(policy.check('::1'), 'allowed');
    expectVerdict(policy.check('127.0.0.1'), /loopback/);
    const v4 = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['0.0.0.0/0'] });
    expectVerdict(v4.check('127.0.0.1'), 'allowed');
    expectVerdict(v4.check('fe80::1'), /link-local/);
  });

  it('never allows a cloud metadata address, even inside an allowed range', () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: true, allowedNetworks: ['169.254.0.0/16', '100.64.0.0/10', '192.0.0.0/24', 'fd00::/8', '0.0.0.0/0', '::/0'] });
    for (const host of ['169.254.169.254', '169.254.170.2', '169.254.169.123', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      expectVerdict(policy.check(host), /cloud metadata/);
    }
    expectVerdict(policy.check('169.254.169.253'), 'allowed');
    expectVerdict(policy.check('fd00:ec2::253'), 'allowed');
  });

  it('refuses an invalid CIDR when constructed', () => {
    expect(() => new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['10.0.0.0/33'] })).toThrow();
    expect(() => new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: ['intranet'] })).toThrow();
  });
});

describe('AddressPolicy.refusal: the reason, and the setting that would allow the address', () => {
  const SETTINGS = { allowPrivateNetworks: 'X_ALLOW_PRIVATE_NETWORKS', allowedNetworks: 'X_ALLOWED_NETWORKS' };
  const strict = new AddressPolicy({ allowPrivateNetworks: false, allowedNetworks: [] }, SETTINGS);
  const PRIVATE_HINT = 'private addresses need X_ALLOW_PRIVATE_NETWORKS=true, or their range in X_ALLOWED_NETWORKS';
  const RANGE_HINT = 'addresses that are not public need their range in X_ALLOWED_NETWORKS';
  const NEVER = 'cloud metadata addresses are refused whatever the settings';

  it.each([
    ['127.0.0.1', `127.0.0.1 is a loopback address; ${PRIVATE_HINT}`],
    ['10.0.0.1', `10.0.0.1 is a private network address; ${PRIVATE_HINT}`],
    ['fe80::1', `fe80::1 is a link-local address; ${PRIVATE_HINT}`],
    ['100.64.0.1', `100.64.0.1 is a carrier-grade NAT address; ${PRIVATE_HINT}`],
    ['fd12::1', `fd12::1 is a unique local (private) IPv6 address; ${PRIVATE_HINT}`],
    // Allowed with private networks, which judge a mapped address by the IPv4 address it maps.
    ['::ffff:127.0.0.1', `::ffff:7f00:1 is an IPv4-mapped IPv6 address; ${PRIVATE_HINT}`],
    ['240.0.0.1', `240.0.0.1 is a reserved address; ${RANGE_HINT}`],
    ['224.0.0.1', `224.0.0.1 is a multicast address; ${RANGE_HINT}`],
    ['0.0.0.0', `0.0.0.0 is the unspecified address; ${RANGE_HINT}`],
    ['169.254.169.254', `169.254.169.254 is a cloud metadata address; ${NEVER}`],
    ['::ffff:169.254.169.254', expect.stringMatching(new RegExp(`cloud metadata address; ${NEVER}$`))],
  ])('%s', (host, expected) => {
    expect(strict.refusal(host)).toEqual(expected);
  });

  it('is null for an allowed address, and the reason alone without settings or for a host name', () => {
    expect(strict.refusal('8.8.8.8')).toBeNull();
    expect(new AddressPolicy({ allowPrivateNetworks: true, allowedNetworks: [] }, SETTINGS).refusal('127.0.0.1')).toBeNull();
    expect(DEFAULT.refusal('127.0.0.1')).toBe('127.0.0.1 is a loopback address');
    expect(strict.refusal('localhost')).toBe('localhost is not an IP address');
  });

  it('names only the range setting when private networks are already allowed', () => {
    const open = new AddressPolicy({ allowPrivateNetworks: true, allowedNetworks: [] }, SETTINGS);
    expect(open.refusal('240.0.0.1')).toBe(`240.0.0.1 is a reserved address; ${RANGE_HINT}`);
  });
});
