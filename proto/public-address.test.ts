import { describe, expect, test } from "vitest";
import { isPublicAddress, NonPublicAddressError, resolvePublicOnly } from "./public-address.ts";

describe("isPublicAddress", () => {
  test.each([
    "127.0.0.1", "127.255.255.254", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fe80::1%eth0", "fc00::1", "fd12:3456::1",
    "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:8.8.8.8", "64:ff9b::a00:1", "[::1]",
    "localhost", "example.com", "", "1.2.3", "01.2.3.4",
  ])("%s is not public", (ip) => expect(isPublicAddress(ip)).toBe(false));

  test.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "2001:4860:4860::8888", "[2606:4700::1]"])(
    "%s is public",
    (ip) => expect(isPublicAddress(ip)).toBe(true),
  );
});

describe("resolvePublicOnly", () => {
  test("an IP literal is checked without DNS", async () => {
    await expect(resolvePublicOnly("8.8.8.8")).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
    await expect(resolvePublicOnly("[::1]")).rejects.toBeInstanceOf(NonPublicAddressError);
  });

  test("a name that resolves to loopback is refused", async () => {
    await expect(resolvePublicOnly("localhost")).rejects.toThrow(/localhost resolves to .* not a public address/);
  });
});
