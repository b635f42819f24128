// The shared wait for one hostname's lookup, with a lookup that answers only when told to (a DNS
// server that hangs is not something this machine can be made to have).
import type { LookupAddress } from "node:dns";
import { describe, expect, test } from "vitest";
import { lookupInFlight } from "./lookup-in-flight.ts";

function heldLookup() {
  const calls: string[] = [];
  const waiting = new Map<string, { resolve: (a: LookupAddress[]) => void; reject: (e: Error) => void }[]>();
  const lookup = (hostname: string) =>
    new Promise<LookupAddress[]>((resolve, reject) => {
      calls.push(hostname);
      waiting.set(hostname, [...(waiting.get(hostname) ?? []), { resolve, reject }]);
    });
  const answer = (hostname: string, addresses: LookupAddress[]) =>
    waiting
      .get(hostname)!
      .splice(0)
      .forEach((w) => w.resolve(addresses));
  const fail = (hostname: string, error: Error) =>
    waiting
      .get(hostname)!
      .splice(0)
      .forEach((w) => w.reject(error));
  return { lookup, calls, answer, fail };
}

describe("lookupInFlight", () => {
  test("16 attempts to one hanging name make one lookup; another name is not held behind it", async () => {
    const dns = heldLookup();
    const shared = lookupInFlight(dns.lookup);
    const hanging = Array.from({ length: 16 }, () => shared("hangs.example"));
    const other = shared("answers.example");
    expect(dns.calls).toEqual(["hangs.example", "answers.example"]);
    dns.answer("answers.example", [{ address: "93.184.215.14", family: 4 }]);
    await expect(other).resolves.toEqual([{ address: "93.184.215.14", family: 4 }]);
    dns.answer("hangs.example", [{ address: "198.51.100.7", family: 4 }]);
    for (const answer of await Promise.all(hanging)) expect(answer).toEqual([{ address: "198.51.100.7", family: 4 }]);
  });

  test("a failure reaches every waiter and is not kept: the next caller asks again", async () => {
    const dns = heldLookup();
    const shared = lookupInFlight(dns.lookup);
    const waiters = [shared("gone.example"), shared("gone.example")];
    dns.fail("gone.example", Object.assign(new Error("getaddrinfo ENOTFOUND gone.example"), { code: "ENOTFOUND" }));
    for (const waiter of waiters) await expect(waiter).rejects.toMatchObject({ code: "ENOTFOUND" });
    const again = shared("gone.example");
    expect(dns.calls).toEqual(["gone.example", "gone.example"]);
    dns.answer("gone.example", [{ address: "2001:db8::1", family: 6 }]);
    await expect(again).resolves.toEqual([{ address: "2001:db8::1", family: 6 }]);
  });
});
