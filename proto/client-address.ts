// Which client a request counts against in the rate limits (the core's link and card-submit limits,
// the facade's public-route limit), shared so every limit groups addresses the same way.
import { isIP } from "node:net";

/**
 * The rate-limit key of a client address: an IPv4 address as itself (an IPv4-mapped IPv6 address,
 * in any spelling, as its IPv4 address); an IPv6 address by its /64, as "2001:db8:1:2::/64". A
 * subscriber is routed a whole /64 at least (a phone, a home LAN), so counting single IPv6
 * addresses would let one client take 2^64 fresh ones. Anything that is not an address is kept
 * as it is (lower case), so it still counts as one client.
 */
export function clientKey(address: string): string {
  const ip = address.trim().toLowerCase();
  // A zone id (fe80::1%eth0) names the local interface, not the client.
  const bare = ip.includes("%") ? ip.slice(0, ip.indexOf("%")) : ip;
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return ip;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 literal (`::` expanded, a trailing dotted IPv4 read as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
