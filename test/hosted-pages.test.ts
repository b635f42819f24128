// The hosted pages the checkout redirect and the checkout session point at:
// HTML that identifies the payment, in Spanish or English, never cached,
// never leaking the embed token, and framable only as the embed.
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";

const stack = useStack();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Café & Té <Antigua>" });
});

function newPayment(overrides: Record<string, unknown> = {}): Promise<{ id: string }> {
  return createOk(stack().http, m.testApiKey, { amount: "123456", currency: "GTQ", description: "Libra de café", ...overrides });
}

describe("payment page /pay/{id}", () => {
  test("identifies the payment in Spanish by default, with safe headers", async () => {
    const p = await newPayment();
    const res = await stack().http.get(`/pay/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-language"]).toBe("es");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.text).toContain(p.id);
    expect(res.text).toContain("Q 1,234.56");
    expect(res.text).toContain("Libra de café");
    expect(res.text).toContain("Pago a Café &amp; Té &lt;Antigua&gt;");
    expect(res.text).not.toContain("<Antigua>");
    expect(res.text).toContain("Modo de prueba");
  });

  test("speaks English when the browser prefers it", async () => {
    const p = await newPayment();
    const res = await stack().http.get(`/pay/${p.id}`, { headers: { "accept-language": "en-US,en;q=0.9,es;q=0.5" } });
    expect(res.status).toBe(200);
    expect(res.headers["content-language"]).toBe("en");
    expect(res.text).toContain("Payment to");
    const es = await stack().http.get(`/pay/${p.id}`, { headers: { "accept-language": "en;q=0.4, es-GT" } });
    expect(es.headers["content-language"]).toBe("es");
  });

  test("the cancel link returns to the merchant's cancel_url with payment_id appended", async () => {
    const p = await newPayment({ cancel_url: "https://shop.example/cart?step=2" });
    const res = await stack().http.get(`/pay/${p.id}`);
    expect(res.text).toContain(`https://shop.example/cart?step=2&amp;payment_id=${p.id}`);
  });

  test("a resolved payment gets a clear page with the way back to the shop", async () => {
    const paid = await newPayment({ success_url: "https://shop.example/thanks" });
    await stack().admin.simulate(paid.id, "succeed");
    const res = await stack().http.get(`/pay/${paid.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-reason="already_paid"');
    expect(res.text).toContain(`https://shop.example/thanks?payment_id=${paid.id}`);
    const failed = await newPayment();
    await stack().admin.simulate(failed.id, "fail");
    expect((await stack().http.get(`/pay/${failed.id}`)).text).toContain('data-reason="failed"');
  });

  test.each(["pay_000000000000000000000000", "pay_nothex", "x"])("an unknown or malformed id %s is a 404 page, not JSON", async (id) => {
    const res = await stack().http.get(`/pay/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.text).toContain("Pago no encontrado");
  });
});

describe("embed page /embed/{id}", () => {
  test("the checkout session's URL opens the embeddable page; framing is allowed there only", async () => {
    const p = await newPayment();
    const session = await stack().http.get(`/v1/payments/${p.id}/checkout_session`);
    const url = new URL(session.json.checkout_url);
    const res = await stack().http.get(url.pathname + url.search);
    expect(res.status).toBe(200);
    expect(res.text).toContain(p.id);
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors *");
    expect(res.headers["x-frame-options"]).toBeUndefined();
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
  });

  test("a missing, tampered, foreign or expired token is refused", async () => {
    const p = await newPayment();
    const other = await newPayment();
    const session = await stack().http.get(`/v1/payments/${p.id}/checkout_session`);
    const token = new URL(session.json.checkout_url).searchParams.get("token")!;
    const [expiry, mac] = token.split(".");
    const flipped = mac!.slice(0, -1) + (mac!.endsWith("A") ? "B" : "A");
    for (const path of [
      `/embed/${p.id}`,
      `/embed/${p.id}?token=${expiry}.${flipped}`,
      `/embed/${p.id}?token=${Number(expiry) + 3600}.${mac}`,
      `/embed/${other.id}?token=${token}`,
      `/embed/${p.id}?token=1.${mac}`,
    ]) {
      const res = await stack().http.get(path);
      expect(res.status, path).toBe(403);
      expect(res.text).not.toContain(p.id);
    }
  });
});
