// Where a webhook may be sent in live mode: only to public Internet addresses. The core checks a URL
// when an endpoint is registered; the dispatcher checks again at delivery time (and connects to the
// address it checked), so a DNS name that later resolves to 127.0.0.1 (DNS rebinding) is refused.
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

// Two lists, each checked only for its own family: a BlockList matches IPv4 rules against
// IPv4-mapped IPv6 addresses and back, so ::ffff:0:0/96 in one list would block every IPv4 address.
const NON_PUBLIC_V4 = new BlockList();
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) NON_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // IPv4-compatible (deprecated), would reach the IPv4 space unchecked
  ["::ffff:0:0", 96], // IPv4-mapped: reaches IPv4 hosts, refused whole rather than decoded
  ["64:ff9b::", 96], // NAT64 well-known prefix: embeds an IPv4 address
  ["64:ff9b:1::", 48], // local-use NAT64
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) NON_PUBLIC_V6.addSubnet(network, prefix, "ipv6");

/** Whether `ip` (an IPv4 or IPv6 literal) is a public unicast address. Anything that is not an IP literal is not. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  // A zone id (fe80::1%eth0) only exists on link-local addresses.
  if (bare.includes("%")) return false;
  const family = isIP(bare);
  if (family === 0) return false;
  return family === 4 ? !NON_PUBLIC_V4.check(bare, "ipv4") : !NON_PUBLIC_V6.check(bare, "ipv6");
}

/** A host that resolves, in whole or in part, to an address that is not public. */
export class NonPublicAddressError extends Error {
  override name = "NonPublicAddressError";
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super(address === hostname ? `${hostname} is not a public address.` : `${hostname} resolves to ${address}, which is not a public address.`);
    this.hostname = hostname;
    this.address = address;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Every address `hostname` resolves to (or the literal itself), refusing with NonPublicAddressError
 * when any of them is not public: one private answer among public ones is enough to refuse, since
 * a client may pick either. DNS failures reject with the resolver's error.
 */
export async function resolvePublicOnly(hostname: string): Promise<ResolvedAddress[]> {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const literal = isIP(bare);
  const addresses: ResolvedAddress[] = literal !== 0
    ? [{ address: bare, family: literal as 4 | 6 }]
    : (await lookup(bare, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family as 4 | 6 }));
  for (const { address } of addresses) if (!isPublicAddress(address)) throw new NonPublicAddressError(hostname, address);
  return addresses;
}

/**
 * A `lookup` for node:http(s)/net that resolves with resolvePublicOnly, so the check and the
 * connection use the same answer (no second lookup a rebinding DNS server could change).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  resolvePublicOnly(hostname).then(
    (addresses) => {
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) {
        callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address.`), { code: "ENOTFOUND" }), "", 0);
      } else if (options.all) {
        (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, wanted);
      } else {
        callback(null, wanted[0]!.address, wanted[0]!.family);
      }
    },
    (error: NodeJS.ErrnoException) => callback(error, "", 0),
  );
};
