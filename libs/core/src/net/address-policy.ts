import ipaddr from 'ipaddr.js';
import type { OutboundNetworkPolicy } from '../config/app-config.js';

export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Instance-metadata services of the large clouds. Refused even when private networks are allowed: they hand out
 * credentials, and nothing a help center fetches or notifies lives there.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.123', // AWS time sync
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS over IPv6
]);

/** Ranges that only reach this host or its private networks: allowed with `allowPrivateNetworks`. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'linkLocal', 'carrierGradeNat', 'uniqueLocal']);

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique local (private) IPv6 address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  reserved: 'a reserved address',
  ipv4Compatible: 'an IPv4-compatible or reserved IPv6 address (::/8)',
};

/**
 * ipaddr.js's range, except that the rest of ::/8 (IPv4-compatible addresses such as `::7f00:1`, deprecated by
 * RFC 4291, and never global) counts as reserved rather than unicast: some stacks route `::7f00:1` to 127.0.0.1.
 */
function rangeOf(address: Address): string {
  const range = address.range();
  if (address instanceof ipaddr.IPv6 && address.parts[0]! < 0x100 && range === 'unicast') return 'ipv4Compatible';
  return range;
}

/** The settings a policy was read from (IMAGE_ALLOW_PRIVATE_NETWORKS, …), named when an address is refused. */
export interface NetworkPolicySettings {
  readonly allowPrivateNetworks: string;
  readonly allowedNetworks: string;
}

/**
 * Decides which IP addresses outbound HTTP may connect to. Only global unicast addresses are allowed by default;
 * the verdict is made on the address that is then connected to, never on a host name.
 */
export class AddressPolicy {
  private readonly allowedNetworks: ReadonlyArray<[Address, number]>;

  constructor(
    private readonly policy: OutboundNetworkPolicy,
    private readonly settings?: NetworkPolicySettings,
  ) {
    this.allowedNetworks = policy.allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /**
   * Why `host` is refused, followed by the setting that would allow it when one would (or that none would, for
   * cloud metadata addresses); null when it is allowed. Without settings, the reason alone.
   */
  refusal(host: string): string | null {
    const verdict = this.check(host);
    if (verdict.allowed) return null;
    const remedy = this.remedy(host);
    return remedy ? `${verdict.reason}; ${remedy}` : verdict.reason;
  }

  /** Which setting would allow a refused host, found by asking the same policy with private networks allowed. */
  private remedy(host: string): string | null {
    const address = AddressPolicy.parse(host);
    if (!this.settings || address === null) return null;
    const { allowPrivateNetworks, allowedNetworks } = this.settings;
    if (new AddressPolicy({ ...this.policy, allowPrivateNetworks: true }).check(host).allowed) {
      return `private addresses need ${allowPrivateNetworks}=true, or their range in ${allowedNetworks}`;
    }
    const metadata = /cloud metadata/.test((this.check(host) as { reason: string }).reason);
    return metadata ? 'cloud metadata addresses are refused whatever the settings' : `addresses that are not public need their range in ${allowedNetworks}`;
  }

  /** Any textual IP form (`127.1`, `0x7f.1`, `2130706433`, `[::1]`, `::ffff:127.0.0.1`), or null for a host name. */
  static parse(host: string): Address | null {
    // A zone (`fe80::1%eth0`) names an interface, not another address: checked without it.
    const bare = (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host).replace(/%.*$/, '');
    if (!ipaddr.isValid(bare)) return null;
    try {
      return ipaddr.parse(bare);
    } catch {
      return null;
    }
  }

  check(host: string): AddressVerdict {
    const address = AddressPolicy.parse(host);
    if (address === null) return { allowed: false, reason: `${host} is not an IP address` };
    const text = address.toString();
    if (METADATA_ADDRESSES.has(text) || this.isMappedMetadata(address) || this.isCompatibleMetadata(address)) {
      return { allowed: false, reason: `${text} is a cloud metadata address` };
    }
    if (this.inAllowedNetwork(address)) return { allowed: true };
    const range = rangeOf(address);
    if (range === 'unicast') return { allowed: true };
    if (this.policy.allowPrivateNetworks) {
      if (PRIVATE_RANGES.has(range)) return { allowed: true };
      if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) return this.check(address.toIPv4Address().toString());
    }
    return { allowed: false, reason: `${text} is ${RANGE_NAMES[range] ?? `a ${range} address`}` };
  }

  private inAllowedNetwork(address: Address): boolean {
    return this.allowedNetworks.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));
  }

  /** `::a9fe:a9fe`: the deprecated IPv4-compatible form of 169.254.169.254. */
  private isCompatibleMetadata(address: Address): boolean {
    if (!(address instanceof ipaddr.IPv6) || address.parts.slice(0, 6).some((part) => part !== 0)) return false;
    const [high, low] = [address.parts[6]!, address.parts[7]!];
    return METADATA_ADDRESSES.has(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
  }

  private isMappedMetadata(address: Address): boolean {
    return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && METADATA_ADDRESSES.has(address.toIPv4Address().toString());
  }
}
