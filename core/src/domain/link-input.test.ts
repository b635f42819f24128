// payLinkKindsFitting parses a pay body once; each kind's own schema is the oracle it must agree with.
import { expect, test } from "vitest";
import type { Mode } from "../config.ts";
import { payLinkInputSchema, payLinkKindsFitting, type LinkKind } from "./link-input.ts";

const KINDS: LinkKind[] = ["test:fixed", "test:variable", "live:fixed", "live:variable"];

const amounts = [undefined, "1500", "0", "-5", "abc", 1500, null];
const urls = [undefined, "https://shop.example.com/thanks", "http://shop.example.com/thanks", "ftp://shop.example.com/", "not a url", "https://", ""];
const methods = ["card", "bank_transfer", "cash", undefined];
const customers = [undefined, { email: "ana@example.com", name: "Ana López" }, { email: "not-an-email" }];

/** Every combination of the fields the kinds tell apart, and some they all refuse. */
function* bodies(): Generator<unknown> {
  for (const amount of amounts)
    for (const success_url of urls)
      for (const cancel_url of [undefined, "https://shop.example.com/cart", "http://shop.example.com/cart"])
        for (const method_type of methods)
          for (const customer of customers) yield { amount, success_url, cancel_url, method_type, customer, extra: "ignored?" };
  yield null;
  yield "card";
  yield [];
  yield {};
}

test("a body fits exactly the kinds whose own schema accepts it, parsed as that schema parses it", () => {
  let checked = 0;
  const fitCounts = new Map<number, number>();
  for (const body of bodies()) {
    const fitting = payLinkKindsFitting(body);
    for (const kind of KINDS) {
      const [mode, type] = kind.split(":") as [Mode, "fixed" | "variable"];
      const own = payLinkInputSchema(mode, type).safeParse(body);
      expect({ kind, body, fits: fitting.has(kind) }).toEqual({ kind, body, fits: own.success });
      if (own.success) expect(fitting.get(kind)).toEqual(own.data);
    }
    fitCounts.set(fitting.size, (fitCounts.get(fitting.size) ?? 0) + 1);
    checked++;
  }
  expect(checked).toBeGreaterThan(1_000);
  // The mix exercises every outcome: no kind, only the test ones, one of each amount type, all four.
  expect([...fitCounts.keys()].sort()).toEqual([0, 1, 2, 4]);
});
