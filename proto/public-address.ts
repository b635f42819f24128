// Where a webhook may be sent: only to public Internet addresses, in both modes (a merchant's
// endpoint must never reach cloud metadata at 169.254.169.254 or an internal service). Loopback is
// the one exception, in test mode only and only where the operator turned WEBHOOK_ALLOW_LOOPBACK on
// (local development: `npm start` and the test harness). The core checks a URL when an endpoint is
// registered; the dispatcher checks again at delivery time (and connects to the address it checked),
// so a DNS name that later resolves to 127.0.0.1 or 10.0.0.1 (DNS rebinding) is refused.
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { lookupInFlight } from "./lookup-in-flight.ts";

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
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated): relays into IPv6 space nobody checked
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  NON_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["::", 96], // IPv4-compatible (deprecated), would reach the IPv4 space unchecked
  ["::ffff:0:0", 96], // IPv4-mapped: reaches IPv4 hosts, refused whole rather than decoded
  ["64:ff9b::", 96], // NAT64 well-known prefix: embeds an IPv4 address
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo: tunnels to an IPv4 address embedded (inverted) in the address
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds an IPv4 address (2002:7f00:1::/48 is 127.0.0.1's)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  NON_PUBLIC_V6.addSubnet(network, prefix, "ipv6");

/** `ip` without the brackets of a URL's IPv6 host. */
const unbracket = (ip: string) => (ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip);

/** Whether `ip` (an IPv4 or IPv6 literal) is a public unicast address. Anything that is not an IP literal is not. */
export function isPublicAddress(ip: string): boolean {
  const bare = unbracket(ip);
  // A zone id (fe80::1%eth0) only exists on link-local addresses.
  if (bare.includes("%")) return false;
  const family = isIP(bare);
  if (family === 0) return false;
  return family === 4 ? !NON_PUBLIC_V4.check(bare, "ipv4") : !NON_PUBLIC_V6.check(bare, "ipv6");
}

const LOOPBACK_V4 = new BlockList();
LOOPBACK_V4.addSubnet("127.0.0.0", 8, "ipv4");
const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress("::1", "ipv6");

/**
 * Whether `ip` is a loopback address: 127.0.0.0/8 or ::1. IPv4-mapped forms (::ffff:127.0.0.1) are
 * not: they stay refused whole, like every IPv4-mapped address.
 */
export function isLoopbackAddress(ip: string): boolean {
  const bare = unbracket(ip);
  const family = isIP(bare);
  if (family === 4) return LOOPBACK_V4.check(bare, "ipv4");
  return family === 6 && LOOPBACK_V6.check(bare, "ipv6");
}

/**
 * Where a webhook may connect. "public": public addresses only (live mode, and test mode by
 * default). "public-or-loopback": those and loopback (test mode where WEBHOOK_ALLOW_LOOPBACK is on).
 * Private, link-local and every other non-public range are refused by both.
 */
export type DestinationRule = "public" | "public-or-loopback";

/** The rule for a webhook of `mode`: loopback only in test mode, and only when the operator allows it. */
export function webhookDestinations(mode: "test" | "live", allowLoopback: boolean): DestinationRule {
  return mode === "test" && allowLoopback ? "public-or-loopback" : "public";
}

/** Whether `rule` lets a webhook connect to `ip`. */
export function isAllowedDestination(ip: string, rule: DestinationRule): boolean {
  return isPublicAddress(ip) || (rule === "public-or-loopback" && isLoopbackAddress(ip));
}

/** A host that resolves, in whole or in part, to an address its rule refuses. */
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

// Every address of a name, as the system resolver (and /etc/hosts) gives them; concurrent asks for one name share a lookup.
const lookupName = lookupInFlight((hostname) => lookup(hostname, { all: true, verbatim: true }));

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Every address `hostname` resolves to (or the literal itself), refusing with NonPublicAddressError
 * when any of them is not allowed by `rule`: one private answer among public ones is enough to
 * refuse, since a client may pick either. DNS failures reject with the resolver's error.
 */
export async function resolveDestination(hostname: string, rule: DestinationRule): Promise<ResolvedAddress[]> {
  const bare = unbracket(hostname);
  const literal = isIP(bare);
  const addresses: ResolvedAddress[] =
    literal !== 0
      ? [{ address: bare, family: literal as 4 | 6 }]
      : (await lookupName(bare)).map(({ address, family }) => ({ address, family: family as 4 | 6 }));
  for (const { address } of addresses) if (!isAllowedDestination(address, rule)) throw new NonPublicAddressError(hostname, address);
  return addresses;
}

/**
 * A `lookup` for node:http(s)/net that resolves with resolveDestination, so the check and the
 * connection use the same answer (no second lookup a rebinding DNS server could change).
 */
export function destinationLookup(rule: DestinationRule): LookupFunction {
  return (hostname, options, callback) => {
    resolveDestination(hostname, rule).then(
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
}
