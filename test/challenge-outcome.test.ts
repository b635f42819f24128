// The challenge step's outcome is the processor's (issue 14, low item "the challenge result taken
// from a form field"): the hosted page posts only the cardholder's answer in the issuer's step, the
// core asks the processor to complete the challenge it opened, and a forged field cannot make a
// challenge the issuer refuses succeed. Sandbox: 4000000000003220 is approved when the cardholder
// confirms; 4000000000003238 is refused however the cardholder answers.
import { describe, expect, test } from "vitest";
import { createOk, useStack } from "./support/expect.ts";
import { formBody } from "./support/link-fixtures.ts";

const stack = useStack();
const APPROVED = "4000000000003220";
const REFUSED = "4000000000003238";

async function challenged(number: string): Promise<{ id: string; successUrl: string; cancelUrl: string }> {
  const merchant = await stack().admin.createMerchant();
  const p = await createOk(stack().http, merchant.testApiKey, { success_url: "https://shop.example/ok", cancel_url: "https://shop.example/cart" });
  const res = await stack().http.post(`/pay/${p.id}`, formBody({ card_number: number, card_expiry: "12/30", card_cvc: "123", card_name: "Ana López" }));
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  expect((await stack().http.get(`/pay/${p.id}`)).text).toContain("/challenge");
  return { id: p.id, successUrl: "https://shop.example/ok", cancelUrl: "https://shop.example/cart" };
}

const statusOf = async (id: string) => (await stack().sql<{ status: string }>("select status from payments where id = $1", [id]))[0]!.status;
const eventsOf = async (id: string) =>
  (await stack().sql<{ type: string }>("select type from outbox_events where envelope->'data'->>'id' = $1 order by seq", [id])).map((e) => e.type);

describe("the challenge step", () => {
  test.each([
    ["confirmed=true", { confirmed: "true" }],
    ["the old passed=true", { passed: "true" }],
    ["both", { confirmed: "true", passed: "true" }],
    ["a made-up outcome", { confirmed: "true", outcome: "authorized", result: "succeed" }],
  ])("a challenge the issuer refuses fails however the form is forged (%s)", async (_name, fields) => {
    const c = await challenged(REFUSED);
    const res = await stack().http.post(`/pay/${c.id}/challenge`, formBody(fields));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${c.cancelUrl}?payment_id=${c.id}`);
    expect(await statusOf(c.id)).toBe("failed");
    expect(await eventsOf(c.id)).toEqual(["payment.failed"]);
  });

  test("the same through the core's CompleteChallenge: confirmed is the cardholder's answer, not the outcome", async () => {
    const c = await challenged(REFUSED);
    const answer = await stack().core.checkout.completeChallenge({ payment_id: c.id, confirmed: true });
    expect(answer.payment?.payable).toBe(false);
    expect(await statusOf(c.id)).toBe("failed");
  });

  test("a challenge the issuer approves: confirmed → paid; not confirmed → failed", async () => {
    const paid = await challenged(APPROVED);
    const ok = await stack().http.post(`/pay/${paid.id}/challenge`, formBody({ confirmed: "true" }));
    expect(ok.headers.location).toBe(`${paid.successUrl}?payment_id=${paid.id}`);
    expect(await statusOf(paid.id)).toBe("captured");
    expect(await eventsOf(paid.id)).toEqual(["payment.succeeded"]);

    const declined = await challenged(APPROVED);
    const no = await stack().http.post(`/pay/${declined.id}/challenge`, formBody({ confirmed: "false" }));
    expect(no.headers.location).toBe(`${declined.cancelUrl}?payment_id=${declined.id}`);
    expect(await statusOf(declined.id)).toBe("failed");
  });
});
