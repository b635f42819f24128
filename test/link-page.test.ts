// The customer's link page over real HTTP: what it shows (escaped merchant text, amounts, methods,
// preview tags, languages), its headers, the form's POST (one payment per page load, inline errors,
// the rate limit), the not-payable, unknown and done pages, and the QR code.
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { PAYMENT_ID_RE, useStack } from "./support/expect.ts";
import { newIdemKey, type Res } from "./support/http.ts";
import { createLink, deactivateLink, formBody, pageKey } from "./support/link-fixtures.ts";
import { decodeQrSvg } from "./support/qr-decode.ts";

// TRUST_PROXY: each test posts from its own X-Forwarded-For address, so the per-IP limit
// (DESIGN default, 10 a minute) only bites where a test means it to.
const stack = useStack({ env: { TRUST_PROXY: "true" } });
let m: Merchant;
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Café & Té <Antigua>" });
});

function meta(html: string, name: string): string | undefined {
  const found = new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"`).exec(html)?.[1];
  return found
    ?.replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"');
}

function pay(linkId: string, fields: Record<string, string>, ip = freshIp()): Promise<Res> {
  const { body, headers } = formBody(fields);
  return stack().http.post(`/l/${linkId}`, { body, headers: { ...headers, "x-forwarded-for": ip } });
}

async function paymentOf(location: string | undefined): Promise<any> {
  const id = /\/v1\/checkout\/(pay_[0-9a-f]{24})$/.exec(location ?? "")?.[1];
  expect(id, location).toMatch(PAYMENT_ID_RE);
  const res = await stack().http.getPayment(m.testApiKey, id!);
  expect(res.status, res.text).toBe(200);
  return res.json;
}

describe("GET /l/{id}", () => {
  test("shows the merchant, title, description and bounds, escaped, with the payment page's headers", async () => {
    const link = await createLink(stack(), m, { title: `Donación <script>alert(1)</script>`, description: `Útiles & libros "2027"` });
    const res = await stack().http.get(`/l/${link.id}`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html; charset=utf-8/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-language"]).toBe("es");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    const csp = res.headers["content-security-policy"] as string;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe");
    expect(res.text).toMatch(/Café &amp; Té &lt;Antigua(&gt;|>)/);
    expect(res.text).not.toContain("<Antigua>");
    expect(res.text).not.toContain("<script>alert(1)");
    expect(res.text).toContain("Donación &lt;script>alert(1)&lt;/script>");
    expect(res.text).toContain("Útiles &amp; libros &quot;2027&quot;");
    expect(res.text).toContain("Entre Q 10.00 y Q 5,000.00.");
    expect(res.text).toContain('name="amount"');
    expect([...res.text.matchAll(/name="method_type" value="([a-z_]+)"/g)].map((x) => x[1])).toEqual(["card", "bank_transfer"]);
    expect(res.text).toContain("Modo de prueba");
    // Each load is a new attempt with its own key.
    const again = await stack().http.get(`/l/${link.id}`);
    expect(pageKey(again.text)).not.toBe(pageKey(res.text));
  });

  test("Open Graph and Twitter tags preview the title and amount; the script is a cached asset", async () => {
    const link = await createLink(stack(), m, { title: "Camisa típica", description: "Talla M", fixed_amount_minor: "15000" });
    const res = await stack().http.get(`/l/${link.id}`);
    expect(meta(res.text, "og:title")).toBe("Camisa típica");
    expect(meta(res.text, "og:description")).toBe("Q 150.00 · Café & Té <Antigua> · Talla M");
    expect(meta(res.text, "og:url")).toBe(`${stack().publicBaseUrl}/l/${link.id}`);
    expect(meta(res.text, "og:type")).toBe("website");
    expect(meta(res.text, "twitter:card")).toBe("summary");
    expect(res.text).toContain("Pagar Q 150.00");
    expect(res.text).not.toContain('name="amount"');
    const src = /<script src="([^"]+)"/.exec(res.text)![1]!;
    const script = await stack().http.get(src);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(script.headers["cache-control"]).toContain("immutable");
  });

  test("a USD link shows dollars and only card; a card-only merchant's GTQ link only card", async () => {
    const usd = await createLink(stack(), m, { title: "Tour", currency: "USD", fixed_amount_minor: "1200" });
    const res = await stack().http.get(`/l/${usd.id}`);
    expect(res.text).toContain("US$ 12.00");
    expect([...res.text.matchAll(/name="method_type" value="([a-z_]+)"/g)].map((x) => x[1])).toEqual(["card"]);
    const cardOnly = await stack().admin.createMerchant({ name: "Solo tarjeta", methods: ["card"] });
    const gtq = await createLink(stack(), cardOnly, {});
    const page = await stack().http.get(`/l/${gtq.id}`);
    expect([...page.text.matchAll(/name="method_type" value="([a-z_]+)"/g)].map((x) => x[1])).toEqual(["card"]);
  });

  test("speaks English when the browser prefers it", async () => {
    const link = await createLink(stack(), m, {});
    const res = await stack().http.get(`/l/${link.id}`, { headers: { "accept-language": "en-US,en;q=0.9" } });
    expect(res.headers["content-language"]).toBe("en");
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain("Between Q 10.00 and Q 5,000.00.");
    expect(res.text).toContain("Payment method");
  });

  test("a deactivated link says so in words, with no form; paying it is refused the same way", async () => {
    const link = await createLink(stack(), m, {});
    await deactivateLink(stack(), link.id);
    const res = await stack().http.get(`/l/${link.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-reason="inactive"');
    expect(res.text).toContain("El comercio desactivó este enlace de pago.");
    expect(res.text).not.toContain("<form");
    const en = await stack().http.get(`/l/${link.id}`, { headers: { "accept-language": "en" } });
    expect(en.text).toContain("The merchant has deactivated this payment link.");
    const before = await stack().paymentCount();
    const posted = await pay(link.id, { idempotency_key: newIdemKey(), amount: "150", method_type: "card" });
    expect(posted.status).toBe(409);
    expect(posted.text).toContain('data-reason="inactive"');
    expect(await stack().paymentCount()).toBe(before);
  });

  test("an expired link says it expired", async () => {
    const link = await createLink(stack(), m, { expires_at: new Date(Date.now() + 1500).toISOString() });
    await expect.poll(async () => (await stack().http.get(`/l/${link.id}`)).text, { timeout: 10_000, interval: 250 }).toContain('data-reason="expired"');
  });

  test.each(["link_000000000000000000000000", "link_nothex", "x"])("an unknown or malformed id %s is a 404 page", async (id) => {
    const res = await stack().http.get(`/l/${id}`);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toContain("Enlace no encontrado");
    expect((await pay(id, { idempotency_key: newIdemKey(), method_type: "card" })).status).toBe(404);
    expect((await stack().http.get(`/l/${id}/done`)).status).toBe(404);
    expect((await stack().http.get(`/l/${id}/qr.svg`)).status).toBe(404);
  });
});

describe("POST /l/{id} (the page's form)", () => {
  test("accepts what people type, creates the payment and sends the browser to its checkout_url", async () => {
    const link = await createLink(stack(), m, {});
    for (const [typed, minor] of [
      ["Q 1,500.00", "150000"],
      ["150.5", "15050"],
      ["Q150", "15000"],
      ["10", "1000"],
    ] as const) {
      const page = await stack().http.get(`/l/${link.id}`);
      const res = await pay(link.id, { idempotency_key: pageKey(page.text), amount: typed, method_type: "bank_transfer" });
      expect(res.status, res.text).toBe(303);
      expect(res.headers.location).toMatch(new RegExp(`^${stack().publicBaseUrl}/v1/checkout/pay_[0-9a-f]{24}$`));
      const payment = await paymentOf(res.headers.location);
      expect({ amount: payment.amount, currency: payment.currency, status: payment.status }).toEqual({ amount: minor, currency: "GTQ", status: "created" });
    }
  });

  test("a fixed link charges its amount with the chosen method", async () => {
    const link = await createLink(stack(), m, { fixed_amount_minor: "15000" });
    const res = await pay(link.id, { idempotency_key: newIdemKey(), method_type: "card" });
    expect(res.status, res.text).toBe(303);
    const payment = await paymentOf(res.headers.location);
    expect(payment.amount).toBe("15000");
    const row = await stack().sql<{ method_type: string }>("SELECT method_type FROM payments WHERE id = $1", [payment.id]);
    expect(row[0]?.method_type).toBe("card");
  });

  test("submitting one page load twice, even at once, is one payment", async () => {
    const link = await createLink(stack(), m, {});
    const key = pageKey((await stack().http.get(`/l/${link.id}`)).text);
    const before = await stack().paymentCount();
    const ip = freshIp();
    const answers = await Promise.all([1, 2, 3].map(() => pay(link.id, { idempotency_key: key, amount: "75", method_type: "card" }, ip)));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(new Set(answers.map((a) => a.headers.location)).size).toBe(1);
    expect(await stack().paymentCount()).toBe(before + 1);
  });

  test.each([
    ["abc", "Escriba un monto como 150 o 150.50."],
    ["150.555", "Escriba un monto como 150 o 150.50."],
    ["1,50", "Escriba un monto como 150 o 150.50."],
    ["Q 5", "El monto debe estar entre Q 10.00 y Q 5,000.00."],
    ["5000.01", "El monto debe estar entre Q 10.00 y Q 5,000.00."],
    ["99999999999999999999", "El monto debe estar entre Q 10.00 y Q 5,000.00."],
    ["", "Escriba el monto a pagar."],
  ])("amount %j: the page again, with the error next to the field and the text kept; nothing created", async (typed, message) => {
    const link = await createLink(stack(), m, {});
    const before = await stack().paymentCount();
    const res = await pay(link.id, { idempotency_key: newIdemKey(), amount: typed, method_type: "bank_transfer" });
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.text).toContain(`<p id="amount-error" class="field-error" role="alert">${message}</p>`);
    expect(res.text).toContain('aria-invalid="true"');
    const field = /<input id="amount"[^>]*>/.exec(res.text)![0];
    if (typed) expect(field).toContain(`value="${typed}"`);
    else expect(field).not.toContain("value");
    expect(res.text).toMatch(/value="bank_transfer" checked/);
    expect(await stack().paymentCount()).toBe(before);
  });

  test("a form without a method, or with one the link does not offer, is refused on the page", async () => {
    const usd = await createLink(stack(), m, { currency: "USD", fixed_amount_minor: "1200" });
    const missing = await pay(usd.id, { idempotency_key: newIdemKey() });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("Elija una forma de pago.");
    const unsupported = await pay(usd.id, { idempotency_key: newIdemKey(), method_type: "bank_transfer" });
    expect(unsupported.status).toBe(400);
    expect(unsupported.text).toContain('class="form-error"');
    expect(unsupported.text).toContain("<form");
  });

  test("a body that is not the form is refused on the page, never a 500", async () => {
    const link = await createLink(stack(), m, {});
    const json = await stack().http.post(`/l/${link.id}`, { body: { amount: "150" }, headers: { "x-forwarded-for": freshIp() } });
    expect(json.status).toBe(400);
    expect(json.headers["content-type"]).toMatch(/^text\/html/);
    const huge = await pay(link.id, { idempotency_key: newIdemKey(), amount: "1".repeat(10_000), method_type: "card" });
    expect(huge.status).toBe(400);
    const noKey = await pay(link.id, { amount: "150", method_type: "card" });
    expect(noKey.status).toBe(400);
    expect(noKey.text).toContain("<form");
  });

  test("too many attempts from one address: a wait message with Retry-After, other addresses unaffected", async () => {
    const link = await createLink(stack(), m, {});
    const ip = freshIp();
    const statuses: number[] = [];
    let limited: Res | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const res = await pay(link.id, { idempotency_key: newIdemKey(), amount: "20", method_type: "card" }, ip);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(303));
    expect(limited?.status).toBe(429);
    const retryAfter = Number(limited!.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited!.text).toMatch(/Demasiados intentos\. Espere \d+ segundos? e intente de nuevo\./);
    expect(limited!.text).toContain("<form");
    expect((await pay(link.id, { idempotency_key: newIdemKey(), amount: "20", method_type: "card" })).status).toBe(303);
  });
});

/** The neutral landing page: no outcome claimed, and nothing about the payment id it was given. */
function expectNoClaim(res: Res, paymentId?: string, what = ""): void {
  expect(res.text, what).toContain('data-outcome="unknown"');
  expect(res.text, what).not.toContain('data-outcome="paid"');
  expect(res.text, what).not.toContain("data-amount");
  if (paymentId) expect(res.text, what).not.toContain(paymentId);
}

describe("GET /l/{id}/done", () => {
  test("thanks for a succeeded payment with its amount, says so for one canceled, claims nothing for one still open or without a payment id", async () => {
    const link = await createLink(stack(), m, { fixed_amount_minor: "2500" });
    const first = await pay(link.id, { idempotency_key: newIdemKey(), method_type: "card" });
    const payment = await paymentOf(first.headers.location);
    const open = await stack().http.get(`/l/${link.id}/done?payment_id=${payment.id}`);
    expect(open.status).toBe(200);
    expect(open.headers["cache-control"]).toBe("no-store");
    expectNoClaim(open, payment.id);
    await stack().admin.simulate(payment.id, "succeed");
    const paid = await stack().http.get(`/l/${link.id}/done?payment_id=${payment.id}`, { headers: { "accept-language": "en" } });
    expect(paid.text).toContain('data-outcome="paid"');
    expect(paid.text).toContain("Your payment to Café &amp; Té &lt;Antigua");
    expect(paid.text).toContain("<dd data-amount>Q 25.00</dd>");
    expect(paid.text).toContain(payment.id);
    expect(paid.text).toContain("Test mode");

    const second = await paymentOf((await pay(link.id, { idempotency_key: newIdemKey(), method_type: "card" })).headers.location);
    await stack().admin.simulate(second.id, "cancel");
    const canceled = await stack().http.get(`/l/${link.id}/done?payment_id=${second.id}`);
    expect(canceled.text).toContain('data-outcome="not_completed"');
    expect(canceled.text).toContain("<dd data-amount>Q 25.00</dd>");
    expect(canceled.text).toContain(`href="/l/${link.id}"`);

    const bare = await stack().http.get(`/l/${link.id}/done`);
    expect(bare.status).toBe(200);
    expectNoClaim(bare);
    const unknown = await stack().http.get(`/l/${link.id}/done?payment_id=pay_000000000000000000000000`);
    expect(unknown.status).toBe(200);
    expectNoClaim(unknown, "pay_000000000000000000000000");
  });

  test("a succeeded payment of another merchant, another link, another mode or no link shows no success on this link's page", async () => {
    const link = await createLink(stack(), m, { fixed_amount_minor: "2500" });
    const succeeded = async (linkId: string, merchant: Merchant = m) => {
      const res = await stack().http.post(`/v1/payment_links/${linkId}/pay`, {
        idem: newIdemKey(),
        body: { method_type: "card" },
        headers: { "x-forwarded-for": freshIp() },
      });
      expect(res.status, res.text).toBe(201);
      await stack().admin.simulate(res.json.id, "succeed");
      expect((await stack().http.getPayment(merchant.testApiKey, res.json.id)).json.status).toBe("captured");
      return res.json.id as string;
    };
    const other = await stack().admin.createMerchant({ name: "Otra Tienda" });
    const foreign = {
      "another merchant's link payment": await succeeded((await createLink(stack(), other, { fixed_amount_minor: "2500" })).id, other),
      "another link's payment": await succeeded((await createLink(stack(), m, { fixed_amount_minor: "2500" })).id),
      "a payment without a link": (
        await stack().admin.simulate(
          (
            await stack().http.createPayment(m.testApiKey, {
              amount: "2500",
              currency: "GTQ",
              method_type: "card",
              success_url: "https://shop.example/ok",
              cancel_url: "https://shop.example/no",
            })
          ).json.id,
          "succeed",
        )
      ).id,
    };
    // A payment of this link in the other mode cannot be made through the API; the page must still not speak for it.
    const otherMode = await succeeded(link.id);
    await stack().sql("update payments set mode = 'live' where id = $1", [otherMode]);
    try {
      for (const [what, id] of Object.entries({ ...foreign, "this link's payment in the other mode": otherMode })) {
        const res = await stack().http.get(`/l/${link.id}/done?payment_id=${id}`);
        expect(res.status, what).toBe(200);
        expectNoClaim(res, id, what);
      }
    } finally {
      // Back as its ledger lines have it, for the file's closing ledger verify.
      await stack().sql("update payments set mode = 'test' where id = $1", [otherMode]);
    }
    // The same id is thanked for once it is this link's payment in its mode again.
    expect((await stack().http.get(`/l/${link.id}/done?payment_id=${otherMode}`)).text).toContain('data-outcome="paid"');
  });

  test("a payment made on the page returns there when the link has no URLs of its own", async () => {
    const link = await createLink(stack(), m, {});
    const res = await pay(link.id, { idempotency_key: newIdemKey(), amount: "100", method_type: "card" });
    const payment = await paymentOf(res.headers.location);
    const hosted = await stack().core.checkout.getHostedPayment({ payment_id: payment.id });
    expect(hosted.success_url).toBe(`${stack().publicBaseUrl}/l/${link.id}/done`);
    expect(hosted.cancel_url).toBe(`${stack().publicBaseUrl}/l/${link.id}/done`);
  });
});

describe("GET /l/{id}/qr.svg", () => {
  test("an SVG QR code of the link's URL, cacheable, different per link", async () => {
    const a = await createLink(stack(), m, {});
    const b = await createLink(stack(), m, {});
    const res = await stack().http.get(`/l/${a.id}/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["cache-control"]).toMatch(/^public, max-age=\d+/);
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 \d+ \d+"/);
    expect(res.text.trimEnd()).toMatch(/<\/svg>$/);
    expect(res.text).not.toMatch(/<script/i);
    // A scanner (an independent decoder) reads the URL the link is shared as.
    expect(decodeQrSvg(res.text)).toBe(`${stack().publicBaseUrl}/l/${a.id}`);
    const other = await stack().http.get(`/l/${b.id}/qr.svg`);
    expect(other.status).toBe(200);
    expect(other.text).not.toBe(res.text);
  });
});
