import { describe, expect, test } from "vitest";
import { isAllowedDestination, isLoopbackAddress, isPublicAddress, NonPublicAddressError, resolveDestination, webhookDestinations } from "./public-address.ts";

describe("isPublicAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:8.8.8.8",
    "64:ff9b::a00:1",
    "[::1]",
    "localhost",
    "example.com",
    "",
    "1.2.3",
    "01.2.3.4",
  ])("%s is not public", (ip) => expect(isPublicAddress(ip)).toBe(false));

  // Ranges that embed or relay to an IPv4 address nobody checked, and documentation ranges.
  test.each([
    "2002:7f00:1::1",
    "2002:a9fe:a9fe::",
    "2002::",
    "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "[2002:c0a8:101::1]",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:0:ffff:ffff:ffff:ffff:ffff:ffff",
    "192.88.99.1",
    "192.88.99.0",
    "192.88.99.255",
    "2001:db8::1",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "100::1",
  ])("%s is not public", (ip) => expect(isPublicAddress(ip)).toBe(false));

  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "[2606:4700::1]",
    // Neighbours of the new ranges stay public.
    "192.88.98.255",
    "192.88.100.1",
    "2001:1::1",
    "2003::1",
    "2001:4860::1",
  ])("%s is public", (ip) => expect(isPublicAddress(ip)).toBe(true));
});

describe("loopback and the destination rules", () => {
  test.each(["127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1"])("%s is loopback", (ip) => expect(isLoopbackAddress(ip)).toBe(true));
  test.each(["::ffff:127.0.0.1", "10.0.0.1", "169.254.169.254", "0.0.0.0", "::", "localhost", "8.8.8.8"])("%s is not loopback", (ip) =>
    expect(isLoopbackAddress(ip)).toBe(false),
  );

  test("loopback only in test mode with the setting on; private and link-local never", () => {
    expect(webhookDestinations("live", true)).toBe("public");
    expect(webhookDestinations("live", false)).toBe("public");
    expect(webhookDestinations("test", false)).toBe("public");
    expect(webhookDestinations("test", true)).toBe("public-or-loopback");
    for (const rule of ["public", "public-or-loopback"] as const) {
      for (const ip of ["10.0.0.5", "169.254.169.254", "192.168.1.1", "fe80::1", "::ffff:127.0.0.1", "0.0.0.0", "2002:7f00:1::1"]) {
        expect(isAllowedDestination(ip, rule), `${ip} under ${rule}`).toBe(false);
      }
      expect(isAllowedDestination("93.184.216.34", rule)).toBe(true);
    }
    expect(isAllowedDestination("127.0.0.1", "public")).toBe(false);
    expect(isAllowedDestination("127.0.0.1", "public-or-loopback")).toBe(true);
    expect(isAllowedDestination("::1", "public-or-loopback")).toBe(true);
  });
});

describe("resolveDestination", () => {
  test("an IP literal is checked without DNS", async () => {
    await expect(resolveDestination("8.8.8.8", "public")).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
    await expect(resolveDestination("[::1]", "public")).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(resolveDestination("[::1]", "public-or-loopback")).resolves.toEqual([{ address: "::1", family: 6 }]);
    await expect(resolveDestination("169.254.169.254", "public-or-loopback")).rejects.toThrow(/169\.254\.169\.254 is not a public address/);
  });

  test("a name that resolves to loopback is refused unless loopback is allowed", async () => {
    await expect(resolveDestination("localhost", "public")).rejects.toThrow(/localhost resolves to .* not a public address/);
    const local = await resolveDestination("localhost", "public-or-loopback");
    expect(local.length).toBeGreaterThan(0);
    expect(local.every(({ address }) => isLoopbackAddress(address))).toBe(true);
  });
});
