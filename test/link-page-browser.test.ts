// The link page in real Chromium at phone size: type an amount, choose a method, pay and land on
// the new payment's page; a double click is one payment (with and without JavaScript); keyboard
// alone; a bad amount's inline error; an exhausted link; axe scans; screenshots under
// test-results/screenshots/link-page-*.png (link-page-variable-360.png is the README's).
import { beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { Merchant } from "./support/stack.ts";
import { PAYMENT_ID_RE, useStack } from "./support/expect.ts";
import { newContext, PHONE, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";
import { createLink } from "./support/link-fixtures.ts";

const stack = useStack();
const browser = useBrowser();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Biblioteca Comunitaria Xela" });
});

/** A page that records every CSP violation the browser reports. */
async function phonePage(options: Parameters<typeof newContext>[1] = {}): Promise<{ page: Page; csp: string[]; close: () => Promise<void> }> {
  const context = await newContext(browser(), { ...PHONE, ...options });
  const page = await context.newPage();
  const csp: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) csp.push(msg.text());
  });
  return { page, csp, close: () => context.close() };
}

/** The payment behind a /pay/{id} URL, as its merchant sees it through the API. */
async function paymentAt(url: string): Promise<any> {
  const id = new URL(url).pathname.split("/")[2]!;
  expect(id).toMatch(PAYMENT_ID_RE);
  const res = await stack().http.getPayment(m.testApiKey, id);
  expect(res.status, res.text).toBe(200);
  const [row] = await stack().sql<{ method_type: string }>("SELECT method_type FROM payments WHERE id = $1", [id]);
  return { ...res.json, method_type: row?.method_type };
}

describe("link page in Chromium", () => {
  test("variable link at 360×640: type an amount, choose a method, pay, land on the new payment's page", async () => {
    const link = await createLink(stack(), m, { title: "Donación para libros", description: "Cada quetzal compra libros para la biblioteca." });
    const { page, csp, close } = await phonePage();
    const res = await page.goto(`${stack().baseUrl}/l/${link.id}`);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator("body").innerText()).toContain("Entre Q 10.00 y Q 5,000.00.");
    // The stylesheet applied and nothing runs wider than the phone.
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).not.toBe("8px");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel("Monto (GTQ)").fill("Q 1,250.50");
    await page.getByLabel("Transferencia bancaria").check();
    await screenshot(page, "link-page-variable-360");
    await Promise.all([page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/), page.getByRole("button", { name: "Pagar" }).click()]);
    await expect.poll(() => page.locator("body").innerText()).toContain("Q 1,250.50");
    const payment = await paymentAt(page.url());
    expect({ amount: payment.amount, currency: payment.currency, method: payment.method_type }).toEqual({
      amount: "125050",
      currency: "GTQ",
      method: "bank_transfer",
    });
    expect(csp).toEqual([]);
    await close();
  });

  test("double-clicking pay is one payment, with the script and without JavaScript", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const link = await createLink(stack(), m, { fixed_amount_minor: "5000" });
      const { page, close } = await phonePage({ javaScriptEnabled });
      await page.goto(`${stack().baseUrl}/l/${link.id}`);
      const before = await stack().paymentCount();
      await page.getByRole("button", { name: "Pagar Q 50.00" }).dblclick();
      // Without the script the second submit replaces the first one's navigation (which the browser
      // aborts), so wait for where the browser ends up rather than for one particular navigation.
      await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/pay\/pay_[0-9a-f]{24}$/);
      await page.waitForLoadState("load");
      expect(await stack().paymentCount(), `javaScriptEnabled=${javaScriptEnabled}`).toBe(before + 1);
      const rows = await stack().sql<{ n: string }>("SELECT count(*)::text AS n FROM payments WHERE amount = 5000 AND id = $1", [
        new URL(page.url()).pathname.split("/")[2],
      ]);
      expect(rows[0]?.n).toBe("1");
      await close();
    }
  });

  test("the script marks the pay button busy after the first submit and stops a second", async () => {
    const link = await createLink(stack(), m, { fixed_amount_minor: "3000" });
    const { page, close } = await phonePage();
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    const before = await stack().paymentCount();
    // A listener added after the page's own records what each submit event left behind; sessionStorage
    // keeps it across the navigation the first submit starts.
    await Promise.all([
      page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/),
      page.evaluate(() => {
        const seen: unknown[] = [];
        document.addEventListener("submit", (event) => {
          const button = document.querySelector("button")!;
          seen.push({ prevented: event.defaultPrevented, disabled: button.disabled, busy: button.getAttribute("aria-busy") });
          sessionStorage.setItem("submits", JSON.stringify(seen));
        });
        const form = document.querySelector("form")!;
        form.requestSubmit();
        form.requestSubmit();
      }),
    ]);
    expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem("submits")))!)).toEqual([
      { prevented: false, disabled: true, busy: "true" },
      { prevented: true, disabled: true, busy: "true" },
    ]);
    expect(await stack().paymentCount()).toBe(before + 1);
    await close();
  });

  test("keyboard alone: labelled fields in order, visible focus, Enter pays", async () => {
    const link = await createLink(stack(), m, {});
    const { page, close } = await phonePage({ locale: "en-US" });
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("amount");
    await page.keyboard.type("75");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("card");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => (document.querySelector("input[name=method_type]:checked") as HTMLInputElement).value)).toBe("bank_transfer");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Pay");
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");
    await Promise.all([page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/), page.keyboard.press("Enter")]);
    const payment = await paymentAt(page.url());
    expect({ amount: payment.amount, method: payment.method_type }).toEqual({ amount: "7500", method: "bank_transfer" });
    await close();
  });

  test("a bad amount comes back with the error next to the field, focused, and passes axe", async () => {
    const link = await createLink(stack(), m, {});
    const { page, csp, close } = await phonePage();
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    const before = await stack().paymentCount();
    await page.getByLabel("Monto (GTQ)").fill("Q 9");
    await page.getByRole("button", { name: "Pagar" }).click();
    await expect.poll(() => page.locator("#amount-error").innerText()).toBe("El monto debe estar entre Q 10.00 y Q 5,000.00.");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("amount");
    expect(await page.getByLabel("Monto (GTQ)").inputValue()).toBe("Q 9");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "link-page-amount-error-360");
    expect(await stack().paymentCount()).toBe(before);
    expect(csp).toEqual([]);
    await close();
  });

  test("a fixed link shows its amount and pays it", async () => {
    const link = await createLink(stack(), m, { title: "Camisa típica", description: "Tejida a mano en Totonicapán.", fixed_amount_minor: "15000" });
    const { page, close } = await phonePage();
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    expect(await page.locator(".amount").innerText()).toBe("Q 150.00");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "link-page-fixed-360");
    await Promise.all([page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/), page.getByRole("button", { name: "Pagar Q 150.00" }).click()]);
    const payment = await paymentAt(page.url());
    expect({ amount: payment.amount, method: payment.method_type }).toEqual({ amount: "15000", method: "card" });
    await close();
  });

  test("an exhausted link (max_payments 1, its payment succeeded) shows the not-payable page", async () => {
    const link = await createLink(stack(), m, { title: "Rifa", fixed_amount_minor: "2000", max_payments: 1 });
    const { page, close } = await phonePage();
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    await Promise.all([page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/), page.getByRole("button", { name: "Pagar Q 20.00" }).click()]);
    const payment = await paymentAt(page.url());
    await stack().admin.simulate(payment.id, "succeed");
    const res = await page.goto(`${stack().baseUrl}/l/${link.id}`);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator("body").innerText()).toContain("Este enlace ya recibió todos los pagos que aceptaba.");
    expect(await page.locator("form").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "link-page-exhausted-360");
    await close();
  });

  test("cancelling on the payment page lands on the link's done page, which offers another try", async () => {
    const link = await createLink(stack(), m, {});
    const { page, close } = await phonePage({ locale: "en-US" });
    await page.goto(`${stack().baseUrl}/l/${link.id}`);
    await page.getByLabel("Amount (GTQ)").fill("25");
    await Promise.all([page.waitForURL(/\/pay\/pay_[0-9a-f]{24}$/), page.getByRole("button", { name: "Pay" }).click()]);
    await Promise.all([page.waitForURL(/\/l\/link_[0-9a-f]{24}\/done\?payment_id=pay_/), page.getByRole("button", { name: /Cancel/ }).click()]);
    await expect.poll(() => page.locator("h1").innerText()).toBe("The payment was not completed");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "link-page-done-360");
    await Promise.all([page.waitForURL(`${stack().baseUrl}/l/${link.id}`), page.getByRole("link", { name: "Try again" }).click()]);
    expect(await page.locator("#amount").count()).toBe(1);
    await close();
  });
});
