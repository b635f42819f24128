import { z } from "zod";
import { CURRENCIES, METHOD_TYPES } from "../config.ts";
import { Merchant } from "../db/entities/index.ts";
import { insertApiKey } from "./api-keys.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { newId } from "./ids.ts";
import { codePoints, displayText, parseOrFail } from "./payment-input.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

export interface CreatedMerchant {
  merchantId: string;
  testApiKey: string;
  liveApiKey: string;
}

// The name is also the trade name customers see on the merchant's pages and links.
const MERCHANT_NAME = z.object({
  name: displayText("a string")
    .transform((t) => t.trim())
    .refine((t) => t !== "" && codePoints(t) <= 200, "must be 1 to 200 characters"),
});

function pick(values: readonly string[], allowed: readonly string[], what: string): string[] {
  if (values.length === 0) return [...allowed];
  for (const value of values) {
    if (!allowed.includes(value)) fail("validation_error", `Unknown ${what} "${value}"; expected ${allowed.join(", ")}.`);
  }
  return [...new Set(values)];
}

/** A merchant with one test and one live key; the plaintext keys are returned once and never stored. */
export async function createMerchant(
  deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  input: { name: string; currencies: string[]; methods: string[] },
): Promise<Changes<CreatedMerchant>> {
  const { name } = parseOrFail(MERCHANT_NAME, { name: input.name });
  const currencies = pick(input.currencies, CURRENCIES, "currency");
  const methods = pick(input.methods, METHOD_TYPES, "method");
  const now = deps.now();
  const merchantId = newId("mer");
  // One flush writes the merchant, then its keys.
  tx.create(Merchant, { id: merchantId, name, trade_name: name, currencies, methods, created_at: now });
  const test = insertApiKey(tx, merchantId, "test", null, now);
  const live = insertApiKey(tx, merchantId, "live", null, now);
  await tx.flush();
  return withoutEvents({ merchantId, testApiKey: test.apiKey, liveApiKey: live.apiKey });
}
