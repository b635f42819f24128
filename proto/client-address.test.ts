import { describe, expect, it } from "vitest";
import { clientKey } from "./client-address.ts";

describe("clientKey", () => {
  it("keeps an IPv4 address whole", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey(" 203.0.113.7 ")).toBe("203.0.113.7");
  });
  it("counts an IPv4-mapped IPv6 address as its IPv4 address, however it is spelled", () => {
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::FFFF:CB00:7107")).toBe("203.0.113.7");
    expect(clientKey("0:0:0:0:0:ffff:cb00:7107")).toBe("203.0.113.7");
  });
  it("counts an IPv6 address by its /64, in one spelling", () => {
    expect(clientKey("2001:db8:a:b::1")).toBe("2001:db8:a:b::/64");
    expect(clientKey("2001:DB8:A:B:FFFF:FFFF:FFFF:FFFF")).toBe("2001:db8:a:b::/64");
    expect(clientKey("2001:0db8:000a:000b:0:0:0:1")).toBe("2001:db8:a:b::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("2001:db8:a:c::1")).not.toBe(clientKey("2001:db8:a:b::1"));
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("64:ff9b::203.0.113.7")).toBe("64:ff9b:0:0::/64");
  });
  it("keeps anything that is not an address as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
    expect(clientKey("")).toBe("");
  });
});
