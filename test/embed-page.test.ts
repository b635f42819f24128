// The embedded checkout in real Chromium: a shop on another loopback origin frames the checkout
// session's checkout_url; in test mode any origin may frame it, the customer pays inside the frame
// and the shop learns the outcome by postMessage (the frame never navigates the shop's window). In
// live mode only the merchant's registered origins may frame it, so a live form cannot be
// clickjacked from anywhere else. A forged token gets the error page.
import type { Frame, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";
import { newContext, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";
import { useShop } from "./support/shop.ts";

const stack = useStack();
const browser = useBrowser();
const shop = useShop();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Embebida" });
});

async function sessionUrl(paymentId: string): Promise<string> {
  const session = await stack().http.get(`/v1/payments/${paymentId}/checkout_session`);
  expect(session.status, session.text).toBe(200);
  return session.json.checkout_url;
}

/** The shop's page framing `src`, and the checkout frame once it has loaded. */
async function openFramed(src: string): Promise<{ page: Page; frame: Frame; close: () => Promise<void> }> {
  const context = await newContext(browser(), { viewport: { width: 420, height: 1000 } });
  const page = await context.newPage();
  await page.goto(shop().framePageUrl(src));
  const handle = await page.waitForSelector("#checkout");
  const frame = (await handle.contentFrame())!;
  await frame.waitForLoadState();
  return { page, frame, close: () => context.close() };
}

async function received(page: Page): Promise<Array<{ origin: string; data: any }>> {
  return page.evaluate(() => (window as unknown as { received: Array<{ origin: string; data: unknown }> }).received);
}

describe("test mode: any origin may frame the checkout", () => {
  test("the customer pays inside the frame; the shop receives the outcome by postMessage and stays where it is", async () => {
    const p = await createOk(stack().http, m.testApiKey, { amount: "4500", success_url: `${shop().origin}/ok`, cancel_url: `${shop().origin}/cart` });
    const src = await sessionUrl(p.id);
    const { page, frame, close } = await openFramed(src);
    await frame.waitForSelector("form[data-card-form]");
    await frame.fill("#card_number", "4242424242424242");
    await frame.fill("#card_expiry", "12/30");
    await frame.fill("#card_cvc", "123");
    await frame.fill("#card_name", "Ana López");
    await screenshot(page, "checkout-embed-test-mode");
    await frame.locator("form[data-card-form] button[type=submit]").click();
    await expect.poll(async () => (await received(page)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const [message] = await received(page);
    expect(message!.origin).toBe(new URL(stack().baseUrl).origin);
    expect(message!.data).toEqual({
      type: "paytami.checkout",
      payment_id: p.id,
      status: "captured",
      outcome: "succeeded",
      redirect_url: `${shop().origin}/ok?payment_id=${p.id}`,
    });
    // The shop's window was not navigated; the frame shows the resolved page.
    expect(new URL(page.url()).pathname).toBe("/frame");
    expect(await frame.locator("[data-reason]").getAttribute("data-reason")).toBe("already_paid");
    expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("captured");
    await close();
  });

  test("the embed page, opened by itself, has no serious accessibility violation", async () => {
    const p = await createOk(stack().http, m.testApiKey);
    const context = await newContext(browser(), { viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    expect((await page.goto(await sessionUrl(p.id)))?.status()).toBe(200);
    await page.waitForSelector("form[data-card-form]");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  test("a cancel inside the frame is told to the shop as canceled", async () => {
    const p = await createOk(stack().http, m.testApiKey, { success_url: `${shop().origin}/ok`, cancel_url: `${shop().origin}/cart` });
    const { page, frame, close } = await openFramed(await sessionUrl(p.id));
    await frame.getByRole("button", { name: "Cancelar y volver a la tienda" }).click();
    await expect.poll(async () => (await received(page)).map((r) => r.data.outcome)).toEqual(["canceled"]);
    expect((await stack().http.getPayment(m.testApiKey, p.id)).json.status).toBe("canceled");
    await close();
  });

  test("a forged token gets the error page inside the frame, and no form", async () => {
    const p = await createOk(stack().http, m.testApiKey);
    const real = new URL(await sessionUrl(p.id));
    const [expiry, mac] = real.searchParams.get("token")!.split(".");
    real.searchParams.set("token", `${expiry}.${mac!.slice(0, -2)}${mac!.endsWith("AA") ? "BB" : "AA"}`);
    const { frame, close } = await openFramed(real.toString());
    await expect.poll(() => frame.locator("h1").innerText()).toBe("Enlace vencido");
    expect(await frame.locator("form").count()).toBe(0);
    await close();
  });
});

describe("live mode: only the merchant's registered origins may frame it", () => {
  async function livePayment(origins: string[]): Promise<{ id: string; src: string; key: string }> {
    const merchant = await stack().admin.createMerchant({ name: "Tienda en Vivo" });
    await stack().core.admin.setEmbedOrigins({ merchant_id: merchant.merchantId, origins });
    const p = await createOk(stack().http, merchant.liveApiKey, { success_url: "https://shop.example/ok", cancel_url: "https://shop.example/cart" });
    return { id: p.id, src: await sessionUrl(p.id), key: merchant.liveApiKey };
  }

  test("the page names the registered origins as frame ancestors and postMessage targets", async () => {
    const { src, key } = await livePayment(["https://shop.example", "https://other.example:8443"]);
    const url = new URL(src);
    const res = await stack().http.get(url.pathname + url.search);
    expect(res.status).toBe(200);
    const csp = res.headers["content-security-policy"]!;
    expect(csp).toContain("frame-ancestors https://shop.example https://other.example:8443");
    expect(csp).not.toContain("frame-ancestors *");
    expect(res.headers["x-frame-options"]).toBeUndefined();
    // Once resolved, the outcome is addressed to those origins only, never "*".
    const pay = /pay_[0-9a-f]{24}/.exec(url.pathname)![0];
    // The merchant's cancel (sandbox steps refuse a live payment).
    expect((await stack().http.post(`/v1/payments/${pay}/cancel`, { key })).status).toBe(200);
    const resolved = await stack().http.get(url.pathname + url.search);
    expect(resolved.text).toContain('data-targets="[&quot;https://shop.example&quot;,&quot;https://other.example:8443&quot;]"');
  });

  test("an unregistered origin cannot frame a live payment: the browser refuses to render it", async () => {
    const { src } = await livePayment(["https://shop.example"]);
    const { frame, close } = await openFramed(src);
    // Chromium replaces a frame refused by frame-ancestors with its own error document.
    await expect.poll(() => frame.url()).not.toBe(src);
    expect(await frame.locator("form").count()).toBe(0);
    expect(await frame.locator("text=Tienda en Vivo").count()).toBe(0);
    await close();
  });

  test("a live merchant that registered no origin is framed by nobody", async () => {
    const { src } = await livePayment([]);
    const url = new URL(src);
    const res = await stack().http.get(url.pathname + url.search);
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});
