// The hosted pages the checkout redirect and the checkout session point at:
// HTML that identifies the payment, in Spanish or English, never cached,
// never leaking the embed token, and framable only as the embed.
import { beforeAll, describe, expect, test, vi } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, expectPage, useStack } from "./support/expect.ts";
import { serverErrors } from "./support/http.ts";

// allow503: one test freezes the core and expects the 503 page.
const stack = useStack({ allow503: true });
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
    // "<" is escaped; ">" needs no escape in text and the renderer leaves it as is.
    expect(res.text).toMatch(/Pago a Café &amp; Té &lt;Antigua(&gt;|>)/);
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

  test("the cancel button posts the cancel; the page and its redirect return to cancel_url with payment_id appended", async () => {
    const p = await newPayment({ cancel_url: "https://shop.example/cart?step=2" });
    const res = await stack().http.get(`/pay/${p.id}`);
    expect(res.text).toContain(`<form method="post" action="/pay/${p.id}/cancel">`);
    expect(res.headers["content-security-policy"]).toMatch(/form-action 'self'[^;]* https:\/\/shop\.example[ ;]/);
    const canceled = await stack().http.post(`/pay/${p.id}/cancel`, { body: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(canceled.status, canceled.text).toBe(303);
    expect(canceled.headers.location).toBe(`https://shop.example/cart?step=2&payment_id=${p.id}`);
    expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("canceled");
    expect((await stack().http.get(`/pay/${p.id}`)).text).toContain(`https://shop.example/cart?step=2&amp;payment_id=${p.id}`);
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

const HOSTILE = `<script>alert(1)</script>"'&`;

/** Undoes the escaping a browser would undo. */
function decode(html: string): string {
  return html.replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e]!);
}

describe("escaping and styles", () => {
  test("merchant data comes out as text, never as markup", async () => {
    const hostile = await stack().admin.createMerchant({ name: HOSTILE });
    const p = await createOk(stack().http, hostile.testApiKey, { description: HOSTILE, cancel_url: `https://shop.example/?q=${encodeURIComponent(HOSTILE)}` });
    const res = await stack().http.get(`/pay/${p.id}`);
    expect(res.status).toBe(200);
    // The one script is the page's own file; the hostile text adds none.
    expect(res.text.match(/<script/g)).toEqual(["<script"]);
    expect(res.text).toMatch(/<script src="\/assets\/checkout\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(res.text).toContain("&lt;script");
    expect(decode(res.text)).toContain(`Pago a ${HOSTILE}`);
    expect(decode(res.text)).toContain(`<p>${HOSTILE}</p>`);
    // The cancel goes back to the hostile cancel_url, its query intact.
    const canceled = await stack().http.post(`/pay/${p.id}/cancel`, { body: "", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(canceled.status, canceled.text).toBe(303);
    expect(new URL(canceled.headers.location!).searchParams.get("q")).toBe(HOSTILE);
    const href = decode(/<a class="button" href="([^"]*)"/.exec((await stack().http.get(`/pay/${p.id}`)).text)![1]!);
    expect(new URL(href).searchParams.get("q")).toBe(HOSTILE);
  });

  test("styles come from the facade's stylesheet, cached for good; the CSP allows no inline style", async () => {
    const p = await newPayment();
    const res = await stack().http.get(`/pay/${p.id}`);
    const csp = res.headers["content-security-policy"]!;
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.text).not.toMatch(/<style|style=/);
    const href = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(res.text)?.[1];
    expect(href, res.text).toBeDefined();
    const css = await stack().http.get(href!);
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    expect(css.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(css.text).toContain("font-family");
  });
});

describe("failures are pages, never JSON", () => {
  test("anything unexpected is a 500 page without detail; the detail goes to the log", async () => {
    const p = await newPayment();
    await stack().admin.simulate(p.id, "cancel");
    // A row no code path writes: the canceled payment's page cannot build its link back to the shop.
    await stack().sql("UPDATE payments SET cancel_url = 'not a url' WHERE id = $1", [p.id]);
    const before = serverErrors.length;
    const res = await stack().http.get(`/pay/${p.id}`, { headers: { "accept-language": "en" } });
    expectPage(res, 500, "Something went wrong");
    expect(res.text).not.toMatch(/not a url|Invalid URL|TypeError|\bat \S+:\d+/);
    expect(res.headers["x-frame-options"]).toBe("DENY");
    // The facade's log file is read from another process: wait for the line rather than race it.
    await vi.waitFor(() => expect(stack().logText("facade")).toMatch(/hosted page failed[\s\S]*Invalid URL|Invalid URL[\s\S]*hosted page failed/), {
      timeout: 5_000,
    });
    // This 500 is the point of the test, not a request a client could provoke.
    expect(serverErrors.length).toBe(before + 1);
    serverErrors.splice(before, 1);
  });

  test("a core that does not answer in time gets a 503 page once the facade's deadline passes", async () => {
    const p = await newPayment();
    const core = stack().pids().core!;
    process.kill(core, "SIGSTOP");
    try {
      const res = await stack().http.get(`/pay/${p.id}`, { timeoutMs: 30_000 });
      expectPage(res, 503, "Servicio no disponible");
      // CORE_TIMEOUT_MS, the facade's deadline for a core call, is 10 s by default. A lower bound only:
      // a slow machine makes the answer later, never earlier. (The core-down pages, answered at once,
      // are in restart.test.ts, whose facade has a deadline no request there can reach.)
      expect(res.ms).toBeGreaterThanOrEqual(9_000);
    } finally {
      process.kill(core, "SIGCONT");
    }
    expect((await stack().http.get(`/pay/${p.id}`)).status).toBe(200);
  });

  test("unknown payments and refused embed tokens are pages too", async () => {
    expectPage(await stack().http.get("/pay/pay_000000000000000000000000"), 404, "Pago no encontrado");
    const p = await newPayment();
    expectPage(await stack().http.get(`/embed/${p.id}?token=1.AAAA`), 403, "Enlace vencido");
  });
});
