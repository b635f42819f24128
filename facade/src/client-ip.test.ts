import { describe, expect, it } from "vitest";
import { clientIp, parseTrustProxy } from "./client-ip.ts";

const request = (remoteAddress: string | undefined, forwardedFor = "") =>
  ({
    get: (name: string) => (name.toLowerCase() === "x-forwarded-for" ? forwardedFor : ""),
    req: { socket: { remoteAddress } },
  }) as unknown as Parameters<typeof clientIp>[0];

const ip = (trust: string | undefined, remoteAddress: string | undefined, forwardedFor?: string) =>
  clientIp(request(remoteAddress, forwardedFor), parseTrustProxy(trust));

describe("clientIp", () => {
  it("is the socket's peer without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    for (const off of [undefined, "", "false", "0"]) expect(ip(off, "192.0.2.5", "203.0.113.7")).toBe("192.0.2.5");
  });

  it("with a hop count, is the address that many hops from the right: never the client-written first hop", () => {
    // One balancer appended the address it saw (203.0.113.7); the client wrote the rest.
    expect(ip("1", "10.0.0.1", "198.51.100.66, 203.0.113.7")).toBe("203.0.113.7");
    expect(ip("true", "10.0.0.1", " 198.51.100.66 , 203.0.113.7 ")).toBe("203.0.113.7");
    // A CDN then a balancer: the CDN's address is the last hop, the client's the one before.
    expect(ip("2", "10.0.0.1", "198.51.100.66, 203.0.113.7, 192.0.2.200")).toBe("203.0.113.7");
    // Fewer hops than proxies: the left-most is the nearest there is to the client.
    expect(ip("2", "10.0.0.1", "203.0.113.7")).toBe("203.0.113.7");
    expect(ip("1", "10.0.0.1")).toBe("10.0.0.1");
  });

  it("with proxy addresses, is the right-most address that is not a trusted proxy", () => {
    const trust = "127.0.0.1, 10.0.0.0/8";
    expect(ip(trust, "127.0.0.1", "198.51.100.66, 203.0.113.7")).toBe("203.0.113.7");
    expect(ip(trust, "10.1.2.3", "198.51.100.66, 203.0.113.7, 10.9.9.9")).toBe("203.0.113.7");
    // A client writing a proxy-looking address first gains nothing: the walk stops at the real client.
    expect(ip(trust, "127.0.0.1", "10.0.0.5, 203.0.113.7")).toBe("203.0.113.7");
    // A peer that is not a trusted proxy is the client, whatever header it sends.
    expect(ip(trust, "192.0.2.5", "203.0.113.7")).toBe("192.0.2.5");
    // Every hop a trusted proxy: the left-most.
    expect(ip(trust, "127.0.0.1", "10.0.0.7, 10.0.0.8")).toBe("10.0.0.7");
    expect(ip("loopback", "::1", "2001:db8::7")).toBe("2001:db8::7");
    expect(ip("loopback", "::ffff:127.0.0.1", "203.0.113.7")).toBe("203.0.113.7");
    expect(ip("::ffff:10.0.0.0/104", "::ffff:10.1.1.1", "203.0.113.7")).toBe("203.0.113.7");
    expect(ip("2001:db8:f::/48", "2001:db8:f::1", "203.0.113.7")).toBe("203.0.113.7");
  });

  it("reads hops with ports, and stops at a hop that is not an address", () => {
    expect(ip("1", "10.0.0.1", "203.0.113.7:51234")).toBe("203.0.113.7");
    expect(ip("1", "10.0.0.1", "[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(ip("2", "10.0.0.1", "203.0.113.7, unknown")).toBe("10.0.0.1");
    expect(ip("127.0.0.1", "127.0.0.1", "unknown")).toBe("127.0.0.1");
  });

  it("spells an IPv4-mapped IPv6 peer as IPv4 and IPv6 in lower case", () => {
    expect(ip(undefined, "::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(ip("1", "10.0.0.1", "2001:DB8::1")).toBe("2001:db8::1");
    expect(ip("1", "10.0.0.1", "::FFFF:203.0.113.7")).toBe("203.0.113.7");
  });
});

describe("parseTrustProxy", () => {
  it("reads off, hop counts and networks", () => {
    expect(parseTrustProxy(undefined)).toEqual({ kind: "none" });
    expect(parseTrustProxy("false")).toEqual({ kind: "none" });
    expect(parseTrustProxy("true")).toEqual({ kind: "hops", hops: 1 });
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustProxy(" loopback , 10.0.0.0/8 ")).toMatchObject({ kind: "networks", networks: ["127.0.0.0/8", "::1/128", "10.0.0.0/8"] });
  });
  it("refuses anything else at start-up, naming the bad part", () => {
    for (const bad of ["yes", "10.0.0.0/33", "10.0.0.0/8/8", "2001:db8::/129", "proxy.internal", "10.0.0.1,", "::ffff:10.0.0.0/64", "-1"]) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
    }
  });
});
