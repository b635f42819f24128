import { BlockList, isIP } from "node:net";
import type { Context, Next } from "koa";

/**
 * Which peers are load balancers whose X-Forwarded-For the facade believes (TRUST_PROXY): none, the
 * nearest `hops` peers whatever their address, or the peers in `networks`.
 */
export type TrustedProxies =
  { kind: "none" } | { kind: "hops"; hops: number } | { kind: "networks"; networks: readonly string[]; v4: BlockList; v6: BlockList };

// Express's names for the usual proxy networks.
const NAMED_NETWORKS: Record<string, readonly string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

/**
 * TRUST_PROXY: unset, "" or "false": no proxy (X-Forwarded-For is ignored); a hop count "1", "2", …
 * (the nearest that many peers are proxies, whatever their address; "0" is none); "true" is a hop
 * count of 1 (one load balancer in front), never Express's "trust every hop", which would hand the
 * client the choice of its own address; otherwise a comma list of proxy addresses and networks
 * ("10.0.0.0/8, 2001:db8::/32, 127.0.0.1") and the names loopback, linklocal, uniquelocal.
 */
export function parseTrustProxy(text: string | undefined): TrustedProxies {
  const value = (text ?? "").trim().toLowerCase();
  if (value === "" || value === "false") return { kind: "none" };
  if (value === "true") return { kind: "hops", hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (!Number.isSafeInteger(hops)) throw new Error(`TRUST_PROXY hop count is too large: "${text}"`);
    return hops === 0 ? { kind: "none" } : { kind: "hops", hops };
  }
  const networks = value
    .split(",")
    .map((part) => part.trim())
    .flatMap((part) => NAMED_NETWORKS[part] ?? [part]);
  const v4 = new BlockList();
  const v6 = new BlockList();
  for (const network of networks) {
    const bad = () =>
      new Error(
        `TRUST_PROXY must be false, true, a hop count or a comma list of proxy addresses/networks (e.g. "127.0.0.1,10.0.0.0/8"); "${network}" is none of these`,
      );
    const [address = "", prefixText, ...rest] = network.split("/");
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
    const ip = mapped ?? address;
    const family = isIP(ip);
    const max = family === 4 ? 32 : 128;
    // An IPv4-mapped network ("::ffff:10.0.0.0/104") is its IPv4 network: clients are compared in IPv4 form.
    const prefix = prefixText === undefined ? max : /^\d+$/.test(prefixText) ? Number(prefixText) - (mapped ? 96 : 0) : -1;
    if (family === 0 || rest.length > 0 || prefix < 0 || prefix > max) throw bad();
    (family === 4 ? v4 : v6).addSubnet(ip, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return { kind: "networks", networks, v4, v6 };
}

function isTrustedProxy(trust: TrustedProxies, address: string, nearer: number): boolean {
  switch (trust.kind) {
    case "none":
      return false;
    case "hops":
      return nearer < trust.hops;
    case "networks": {
      const family = isIP(address);
      return family === 4 ? trust.v4.check(address, "ipv4") : family === 6 ? trust.v6.check(address, "ipv6") : false;
    }
  }
}

/**
 * The client's address, for the rate limits: the socket's peer, unless that peer is a trusted proxy
 * (TRUST_PROXY); then X-Forwarded-For is read from its right-hand end, where each proxy appended
 * the address it saw, skipping trusted proxies, and the first address that is not one is the
 * client. Everything left of it was written by the client and is never believed: taking the first
 * hop would let any client pick its own address and escape every per-address limit. When every
 * hop is a trusted proxy, the left-most is the best there is; a hop that is not an address stops
 * the walk at the proxy that wrote it.
 * IPv4-mapped IPv6 addresses count as their IPv4 address, so one client has one spelling.
 */
export function clientIp(ctx: Pick<Context, "get" | "req">, trust: TrustedProxies): string {
  let client = normalized(ctx.req.socket.remoteAddress ?? "unknown");
  if (trust.kind === "none") return client;
  const hops = ctx
    .get("X-Forwarded-For")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  for (let nearer = 0; isTrustedProxy(trust, client, nearer); nearer++) {
    const hop = hops[hops.length - 1 - nearer];
    const address = hop === undefined ? undefined : addressOf(hop);
    if (address === undefined) return client;
    client = address;
  }
  return client;
}

/**
 * Sets `ctx.ip` to clientIp for every request. Koa's own `proxy` setting stays off: it would believe
 * the first X-Forwarded-For hop from any peer (and X-Forwarded-Proto/-Host with it); nothing in the
 * facade reads the forwarded protocol or host (every URL it makes starts from PUBLIC_BASE_URL).
 */
export function resolveClientIp(trust: TrustedProxies) {
  return async (ctx: Context, next: Next) => {
    ctx.request.ip = clientIp(ctx, trust);
    await next();
  };
}

/** A hop as proxies write it: an address, possibly with a port ("203.0.113.7:5120", "[2001:db8::1]:443"). */
function addressOf(hop: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop)?.[1];
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop)?.[1];
  const address = bracketed ?? v4WithPort ?? hop;
  return isIP(address) ? normalized(address) : undefined;
}

function normalized(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip.toLowerCase();
}
