import { describe, expect, it } from "vitest";
import { WindowCounter } from "./public-route-limit.ts";

describe("WindowCounter", () => {
  const at = (s: number) => Date.UTC(2026, 10, 21, 12, 0, 0) + s * 1000;

  it("admits perIp requests per client and window, then answers the seconds until the window ends", () => {
    const counter = new WindowCounter({ perIp: 3, windowMs: 60_000 });
    expect([1, 2, 3].map(() => counter.hit("203.0.113.7", at(15)))).toEqual([undefined, undefined, undefined]);
    expect(counter.hit("203.0.113.7", at(15))).toBe(45);
    expect(counter.hit("203.0.113.7", at(59.5))).toBe(1);
    expect(counter.hit("198.51.100.9", at(20))).toBeUndefined();
    // The next window admits again.
    expect(counter.hit("203.0.113.7", at(60))).toBeUndefined();
  });

  it("past its memory bound, new clients share one count while known ones keep theirs", () => {
    const counter = new WindowCounter({ perIp: 1, windowMs: 60_000 });
    for (let i = 0; i < 50_000; i++) expect(counter.hit(`client-${i}`, at(1))).toBeUndefined();
    expect(counter.hit("newcomer-1", at(1))).toBeUndefined();
    expect(counter.hit("newcomer-2", at(1))).toBe(59);
    expect(counter.hit("client-7", at(1))).toBe(59);
    expect(counter.hit("newcomer-3", at(61))).toBeUndefined();
  });
});
