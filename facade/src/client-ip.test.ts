import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip.ts";

const request = (remoteAddress: string | undefined, forwardedFor = "") => ({
  get: (name: string) => (name.toLowerCase() === "x-forwarded-for" ? forwardedFor : ""),
  req: { socket: { remoteAddress } },
}) as unknown as Parameters<typeof clientIp>[0];

describe("clientIp", () => {
  it("is the socket's peer without TRUST_PROXY, whatever X-Forwarded-For says", () => {
    expect(clientIp(request("192.0.2.5", "203.0.113.7"), false)).toBe("192.0.2.5");
  });
  it("is the first X-Forwarded-For hop with TRUST_PROXY", () => {
    expect(clientIp(request("10.0.0.1", " 203.0.113.7 , 10.0.0.9"), true)).toBe("203.0.113.7");
  });
  it("falls back to the socket when the first hop is not an address", () => {
    expect(clientIp(request("10.0.0.1", "unknown, 203.0.113.7"), true)).toBe("10.0.0.1");
    expect(clientIp(request("10.0.0.1"), true)).toBe("10.0.0.1");
  });
  it("spells an IPv4-mapped IPv6 peer as IPv4 and IPv6 in lower case", () => {
    expect(clientIp(request("::ffff:127.0.0.1"), false)).toBe("127.0.0.1");
    expect(clientIp(request("10.0.0.1", "2001:DB8::1"), true)).toBe("2001:db8::1");
  });
});
