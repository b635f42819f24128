import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../proto/error-catalog.ts";
import { HTTP_STATUS } from "./error-map.ts";

// Spec §7, copied as a table so that a change to the map that departs from the contract fails.
const SPEC: [string, number][] = [
  ["unauthorized", 401],
  ["validation_error", 400],
  ["idempotency_key_required", 400],
  ["idempotency_key_reused", 409],
  ["amount_below_minimum", 400],
  ["amount_above_maximum", 400],
  ["amount_required", 400],
  ["currency_not_supported", 400],
  ["method_not_supported", 400],
  ["unknown_payment", 404],
  ["unknown_payment_link", 404],
  ["payment_not_payable", 409],
  ["payment_link_not_payable", 409],
  ["payment_not_refundable", 400],
  ["refund_amount_exceeds_remaining", 400],
  ["rate_limited", 429],
  ["processor_unavailable", 503],
  ["internal_error", 500],
];

describe("HTTP status of each catalog code", () => {
  it.each(SPEC)("%s → %i", (code, status) => {
    expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS]).toBe(status);
  });
  it("covers exactly the closed catalog", () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(SPEC.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });
});
