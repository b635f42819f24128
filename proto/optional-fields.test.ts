import { describe, expect, test } from "vitest";
import { Payout } from "./gen/paytami/v1/payout.ts";
import { absentAsNull, nullAsAbsent } from "./optional-fields.ts";
import { payoutJson } from "./payout-json.ts";

describe("optional fields: null in views and JSON, absent in messages", () => {
  test("each null becomes absent and back, every other value kept, in the order the fields come", () => {
    const view = { id: "x", note: null, count: 0, flag: false, text: "" };
    const message = nullAsAbsent(view);
    expect(message).toEqual({ id: "x", note: undefined, count: 0, flag: false, text: "" });
    expect(Object.keys(message)).toEqual(["id", "note", "count", "flag", "text"]);
    expect(JSON.stringify(absentAsNull(message))).toBe(JSON.stringify(view));
  });

  test("a payout through the wire comes out as the view it was made from, byte for byte, keys in contract order", () => {
    const view = {
      id: "payout_0123456789abcdef01234567",
      currency: "GTQ",
      amount: "9450",
      status: "failed",
      bank_account_id: "ba_0123456789abcdef01234567",
      bank_account_masked: "****0002",
      requested_at: "2026-01-02T03:04:05.678Z",
      processing_at: "2026-01-02T03:04:06.000Z",
      sent_to_bank_at: "2026-01-02T03:04:07.000Z",
      completed_at: null,
      failed_at: "2026-01-02T03:04:08.000Z",
      canceled_at: null,
      failure_reason: "account_closed",
    };
    const decoded = Payout.decode(Payout.encode(nullAsAbsent(view)).finish());
    expect(JSON.stringify(payoutJson(decoded))).toBe(JSON.stringify(view));
  });
});
