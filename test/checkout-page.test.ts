// The payment page in real Chromium, starting where a merchant sends the customer (checkout_url):
// each sandbox test card to its outcome, status and return URL; the challenge step; bank transfer's
// waiting state; the customer's cancel; the pages of resolved payments; one attempt however often
// the button is pressed; the keyboard alone; a phone-size screen; no serious accessibility
// violation and no CSP violation on any state; and the card number in no log.
import { existsSync } from "node:fs";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";
import { newContext, PHONE, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";
import { useShop } from "./support/shop.ts";

const stack = useStack();
const browser = useBrowser();
const shop = useShop();
let m: Merchant;

const CARDS = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  challenge: "4000000000003220",
  processorError: "4000000000000119",
} as const;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Típica" });
});

interface Checkout {
  id: string;
  page: Page;
  context: BrowserContext;
  /** Content-Security-Policy reports seen in the console (must stay empty). */
  cspViolations: string[];
  successUrl: string;
  cancelUrl: string;
}

/** A payment, and a phone-size browser at its checkout_url (302 to the payment page). */
async function openCheckout(overrides: Record<string, unknown> = {}, options: BrowserContextOptions = PHONE): Promise<Checkout> {
  const successUrl = `${shop().origin}/ok?order=7`;
  const cancelUrl = `${shop().origin}/cart?order=7`;
  const p = await createOk(stack().http, m.testApiKey, {
    amount: "15050",
    currency: "GTQ",
    description: "Camisa típica",
    success_url: successUrl,
    cancel_url: cancelUrl,
    ...overrides,
  });
  const context = await newContext(browser(), options);
  const page = await context.newPage();
  const cspViolations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
  });
  const res = await page.goto(p.checkout_url);
  expect(res?.status()).toBe(200);
  expect(page.url()).toBe(`${stack().publicBaseUrl}/pay/${p.id}`);
  return { id: p.id, page, context, cspViolations, successUrl, cancelUrl };
}

async function fillCard(page: Page, number: string, { expiry = "12/30", cvc = "123", name = "Ana López" } = {}): Promise<void> {
  await page.fill("#card_number", number);
  await page.fill("#card_expiry", expiry);
  await page.fill("#card_cvc", cvc);
  await page.fill("#card_name", name);
}

const payButton = (page: Page) => page.locator("form[data-card-form] button[type=submit]");

async function statusOf(id: string): Promise<string> {
  const res = await stack().http.getPayment(m.testApiKey, id);
  expect(res.status, res.text).toBe(200);
  return res.json.status;
}

/** The browser is back at the shop, on `base` with payment_id added to its own query. */
async function expectBackAtShop(c: Checkout, base: string): Promise<void> {
  await c.page.waitForURL((url) => url.origin === shop().origin);
  const url = new URL(c.page.url());
  const expected = new URL(base);
  expect(url.pathname).toBe(expected.pathname);
  expect(url.searchParams.get("order")).toBe("7");
  expect(url.searchParams.get("payment_id")).toBe(c.id);
}

async function expectAccessible(c: Checkout, state: string): Promise<void> {
  expect(await seriousA11yViolations(c.page), state).toEqual([]);
  expect(c.cspViolations, state).toEqual([]);
}

/**
 * POST requests the facade logged for this payment's page (its access log: method and path, never a
 * body), counted once a request made now has reached the log file: the facade writes its lines in
 * order, so every line it wrote before (a POST the browser has long been answered for) is there too.
 */
async function postsLogged(id: string): Promise<number> {
  const lines = () => stack().logText("facade").split("\n");
  const reads = () => lines().filter((line) => line.includes('"method":"GET"') && line.includes(`"path":"/v1/payments/${id}"`)).length;
  const readsBefore = reads();
  await statusOf(id);
  await expect.poll(reads).toBeGreaterThan(readsBefore);
  return lines().filter((line) => line.includes('"method":"POST"') && line.includes(`"path":"/pay/${id}"`)).length;
}

describe("card payments", () => {
  test("the success card: the brand shows while typing, the payment is captured, the customer lands on success_url; back shows the resolved page", async () => {
    const c = await openCheckout();
    await expect.poll(() => c.page.locator("body").innerText()).toContain("Q 150.50");
    await expect.poll(() => c.page.locator("h1").innerText()).toBe("Pago a Tienda Típica");
    for (const [field, token] of [
      ["card_number", "cc-number"],
      ["card_expiry", "cc-exp"],
      ["card_cvc", "cc-csc"],
      ["card_name", "cc-name"],
    ]) {
      expect(await c.page.getAttribute(`#${field}`, "autocomplete")).toBe(token);
    }
    expect(await c.page.getAttribute("#card_number", "inputmode")).toBe("numeric");
    await expectAccessible(c, "card form");
    expect(existsSync(await screenshot(c.page, "checkout-card-form-360"))).toBe(true);
    await c.page.fill("#card_number", "4242");
    await expect.poll(() => c.page.locator("#card_number-brand").innerText()).toBe("Visa");
    await fillCard(c.page, "4242 4242 4242 4242");
    await screenshot(c.page, "checkout-card-filled-360");
    await payButton(c.page).click();
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    // Back to the page: never cached, so the browser asks again and gets the resolved page, no form.
    await c.page.goBack();
    await expect.poll(() => c.page.locator("[data-reason]").getAttribute("data-reason")).toBe("already_paid");
    expect(await c.page.locator("form").count()).toBe(0);
    await expectAccessible(c, "paid page after back");
    expect(await postsLogged(c.id)).toBe(1);
    await c.context.close();
  });

  test.each([
    ["declined", CARDS.declined],
    ["insufficient funds", CARDS.insufficient],
  ])("the %s card fails the payment and returns the customer to cancel_url", async (_name, number) => {
    const c = await openCheckout();
    await fillCard(c.page, number);
    await payButton(c.page).click();
    await expectBackAtShop(c, c.cancelUrl);
    expect(await statusOf(c.id)).toBe("failed");
    await c.context.close();
  });

  test.each([
    [true, "captured"],
    [false, "failed"],
  ])("the challenge card shows a challenge step; passed=%s → %s", async (passed, status) => {
    const c = await openCheckout();
    await fillCard(c.page, CARDS.challenge);
    await payButton(c.page).click();
    await c.page.waitForSelector("form[action$='/challenge']");
    expect(c.page.url()).toBe(`${stack().publicBaseUrl}/pay/${c.id}`);
    expect(await statusOf(c.id)).toBe("processing");
    expect(await c.page.locator("[data-card]").innerText()).toContain("3220");
    await expectAccessible(c, "challenge step");
    if (passed) await screenshot(c.page, "checkout-challenge-360");
    await c.page.getByRole("button", { name: passed ? "Confirmar pago" : "No confirmar" }).click();
    await expectBackAtShop(c, passed ? c.successUrl : c.cancelUrl);
    expect(await statusOf(c.id)).toBe(status);
    await c.context.close();
  });

  test("the processor-error card brings the form back with a try-again message; the payment stays payable and a second card pays it", async () => {
    const c = await openCheckout();
    await fillCard(c.page, CARDS.processorError);
    await payButton(c.page).click();
    await expect.poll(() => c.page.locator(".notice[role=alert]").innerText()).toContain("Intente de nuevo");
    expect(c.page.url()).toBe(`${stack().publicBaseUrl}/pay/${c.id}`);
    expect(await statusOf(c.id)).toBe("created");
    // What the customer typed is kept, except the security code.
    expect(await c.page.inputValue("#card_name")).toBe("Ana López");
    expect(await c.page.inputValue("#card_cvc")).toBe("");
    await expectAccessible(c, "processor error");
    await screenshot(c.page, "checkout-processor-error-360");
    await fillCard(c.page, CARDS.success);
    await payButton(c.page).click();
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    await c.context.close();
  });

  test("a double click and an Enter on top post the form once", async () => {
    const c = await openCheckout();
    await fillCard(c.page, CARDS.success);
    await payButton(c.page).dblclick();
    await c.page.keyboard.press("Enter").catch(() => undefined);
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    expect(await postsLogged(c.id)).toBe(1);
    await c.context.close();
  });

  test("the script lets the form go once: later clicks, Enter and submits while it is in flight are stopped", async () => {
    const c = await openCheckout();
    await fillCard(c.page, CARDS.success);
    // Count the submissions the page lets through, and keep the browser from leaving, so the page stays
    // as it is while a post would be in flight (this listener runs after the page's own).
    await c.page.evaluate(() => {
      const w = window as unknown as { passed: number };
      w.passed = 0;
      window.addEventListener("submit", (event) => {
        if (!event.defaultPrevented) w.passed++;
        event.preventDefault();
      });
    });
    await payButton(c.page).click();
    await expect.poll(() => payButton(c.page).isDisabled()).toBe(true);
    expect(await payButton(c.page).innerText()).toBe("Procesando…");
    await payButton(c.page).click({ force: true });
    await c.page.focus("#card_name");
    await c.page.keyboard.press("Enter");
    await c.page.evaluate(() => (document.querySelector("form[data-card-form]") as HTMLFormElement).requestSubmit());
    expect(await c.page.evaluate(() => (window as unknown as { passed: number }).passed)).toBe(1);
    expect(await postsLogged(c.id)).toBe(0);
    await c.context.close();
  });

  test("the keyboard alone: tab through the fields, type, press Enter on the button", async () => {
    const c = await openCheckout({ currency: "USD", amount: "1200" }, { viewport: { width: 1024, height: 900 } });
    expect(await c.page.locator(".amount").innerText()).toBe("US$ 12.00");
    await c.page.keyboard.press("Tab");
    expect(await c.page.evaluate(() => document.activeElement?.id)).toBe("card_number");
    await c.page.keyboard.type(CARDS.success);
    await c.page.keyboard.press("Tab");
    await c.page.keyboard.type("1230");
    await c.page.keyboard.press("Tab");
    await c.page.keyboard.type("123");
    await c.page.keyboard.press("Tab");
    await c.page.keyboard.type("Ana López");
    await c.page.keyboard.press("Tab");
    expect(await c.page.evaluate(() => document.activeElement?.getAttribute("type"))).toBe("submit");
    await c.page.keyboard.press("Enter");
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    await c.context.close();
  });

  test("inline checks: a wrong field says why next to it, is marked invalid and stops the post", async () => {
    const c = await openCheckout();
    await fillCard(c.page, "4242 4242 4242 4241", { expiry: "01/20", cvc: "1", name: "Ana" });
    await payButton(c.page).click();
    await expect.poll(() => c.page.locator("#card_number-error").innerText()).toContain("no es válido");
    expect(await c.page.getAttribute("#card_number", "aria-invalid")).toBe("true");
    expect(await c.page.getAttribute("#card_number", "aria-describedby")).toContain("card_number-error");
    expect(await c.page.locator("#card_expiry-error").innerText()).toContain("vencida");
    expect(await c.page.locator("#card_cvc-error").innerText()).toContain("3 o 4");
    expect(await c.page.evaluate(() => document.activeElement?.id)).toBe("card_number");
    expect(await postsLogged(c.id)).toBe(0);
    await expectAccessible(c, "inline errors");
    await screenshot(c.page, "checkout-inline-errors-360");
    // Fixing a field clears its error as the customer types.
    await c.page.fill("#card_number", CARDS.success);
    await expect.poll(() => c.page.getAttribute("#card_number", "aria-invalid")).toBeNull();
    expect(await statusOf(c.id)).toBe("created");
    await c.context.close();
  });

  test("without JavaScript the server checks the card, shows the errors in English, and a good card pays", async () => {
    const c = await openCheckout({}, { ...PHONE, javaScriptEnabled: false, locale: "en-US" });
    expect(await c.page.locator("h1").innerText()).toBe("Payment to Tienda Típica");
    await fillCard(c.page, "4242424242424241", { expiry: "13/30" });
    const [response] = await Promise.all([c.page.waitForResponse((r) => r.request().method() === "POST"), payButton(c.page).click()]);
    expect(response.status()).toBe(422);
    await expect.poll(() => c.page.locator("#card_number-error").innerText()).toContain("not valid");
    expect(await c.page.getAttribute("#card_number", "aria-invalid")).toBe("true");
    expect(await c.page.locator(".error-summary").innerText()).toContain("Enter the expiry as MM/YY");
    expect(await statusOf(c.id)).toBe("created");
    expect(c.cspViolations).toEqual([]);
    await fillCard(c.page, CARDS.success);
    await payButton(c.page).click();
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    await c.context.close();
  });
  test("the server's error state (what a browser without the script gets) passes the accessibility scan", async () => {
    const c = await openCheckout();
    await fillCard(c.page, "4242424242424241", { expiry: "1/2", cvc: "", name: "" });
    // form.submit() skips the submit event, so the script's checks do not run: the server's do.
    await Promise.all([
      c.page.waitForResponse((r) => r.request().method() === "POST"),
      c.page.evaluate(() => (document.querySelector("form[data-card-form]") as HTMLFormElement).submit()),
    ]);
    await expect.poll(() => c.page.locator(".error-summary li").count()).toBe(4);
    await expectAccessible(c, "server-side errors");
    await screenshot(c.page, "checkout-server-errors-360");
    await c.context.close();
  });
});

describe("bank transfer", () => {
  test("details and a reference to copy, a waiting page that moves on by itself once the transfer is confirmed", async () => {
    const c = await openCheckout({ method_type: "bank_transfer", amount: "250000" });
    await expectAccessible(c, "bank transfer start");
    await c.page.getByRole("button", { name: "Pagar por transferencia" }).click();
    await c.page.waitForSelector("[data-bank-transfer]");
    expect(await statusOf(c.id)).toBe("processing");
    const reference = (await c.page.locator("#bank-reference").innerText()).trim();
    expect(reference.length).toBeGreaterThan(0);
    expect(await c.page.locator("#bank-account").innerText()).not.toBe("");
    // The copy button appears with the script and copies the reference.
    await c.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack().publicBaseUrl });
    await c.page.locator("button[data-copy=bank-reference]").click();
    await expect.poll(() => c.page.locator("#bank-reference-copied").innerText()).toBe("Copiado");
    expect(await c.page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
    expect(await c.page.locator(".waiting[role=status]").innerText()).toContain("Esperando su transferencia");
    await expectAccessible(c, "bank transfer waiting");
    await screenshot(c.page, "checkout-bank-transfer-waiting-360");
    // A reload while waiting shows the same details (starting the transfer is idempotent).
    await c.page.reload();
    expect((await c.page.locator("#bank-reference").innerText()).trim()).toBe(reference);
    await stack().admin.simulate(c.id, "succeed");
    await expectBackAtShop(c, c.successUrl);
    expect(await statusOf(c.id)).toBe("captured");
    await c.context.close();
  });
});

describe("cancel and resolved payments", () => {
  test("the customer's cancel cancels the payment and returns to cancel_url", async () => {
    const c = await openCheckout();
    await c.page.getByRole("button", { name: "Cancelar y volver a la tienda" }).click();
    await expectBackAtShop(c, c.cancelUrl);
    expect(await statusOf(c.id)).toBe("canceled");
    await c.context.close();
  });

  test.each([
    ["succeed", "already_paid", "ok"],
    ["fail", "failed", "cart"],
    ["cancel", "canceled", "cart"],
    ["expire", "expired", "cart"],
  ] as const)("after %s the page says %s, offers no form, and links back to the shop", async (step, reason, back) => {
    const c = await openCheckout();
    await stack().admin.simulate(c.id, step);
    await c.page.reload();
    expect(await c.page.locator("[data-reason]").getAttribute("data-reason")).toBe(reason);
    expect(await c.page.locator("form, input").count()).toBe(0);
    const href = new URL((await c.page.locator("a.button").getAttribute("href"))!);
    expect(href.pathname).toBe(`/${back}`);
    expect(href.searchParams.get("payment_id")).toBe(c.id);
    await expectAccessible(c, `${reason} page`);
    await screenshot(c.page, `checkout-resolved-${reason}-360`);
    await c.context.close();
  });

  test("an unknown payment is a readable page", async () => {
    const context = await newContext(browser(), PHONE);
    const page = await context.newPage();
    const res = await page.goto(`${stack().baseUrl}/pay/pay_000000000000000000000000`);
    expect(res?.status()).toBe(404);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});

describe("what the page never reveals", () => {
  test("no test card number appears in any log line of the facade or the core", async () => {
    const logs = stack().logText("facade") + stack().logText("core");
    expect(logs.length).toBeGreaterThan(0);
    for (const number of [...Object.values(CARDS), "4242424242424241", "4242 4242 4242 4242", "4242 4242 4242 4241"]) expect(logs).not.toContain(number);
  });
});
