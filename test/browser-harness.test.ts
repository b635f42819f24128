// The browser harness itself, on today's payment page: Chromium starts, the page renders under
// its own CSP (no inline script or style is blocked), axe-core runs without relaxing that CSP and
// finds what it should, and screenshots land where CI keeps them.
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import type { Merchant } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";
import { newContext, PHONE, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";

const stack = useStack();
const browser = useBrowser();
let m: Merchant;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Harness" });
});

describe("browser harness", () => {
  test("renders the payment page at phone size under its CSP, scans it and keeps a screenshot", async () => {
    const p = await createOk(stack().http, m.testApiKey, { amount: "15050", currency: "GTQ", description: "Camisa típica" });
    const context = await newContext(browser(), PHONE);
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    const res = await page.goto(`${stack().baseUrl}/pay/${p.id}`);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator("body").innerText()).toContain("Q 150.50");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    // The stylesheet applied (a CSP-blocked or missing sheet leaves the body's default 8px margin).
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).not.toBe("8px");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(cspViolations).toEqual([]);
    const file = await screenshot(page, "harness-payment-page-360");
    expect(existsSync(file)).toBe(true);
    await context.close();
  });

  test("the axe scan reports a serious violation when one is there", async () => {
    const context = await newContext(browser());
    const page = await context.newPage();
    await page.setContent(`<html lang="en"><body><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="text"></main></body></html>`);
    const ids = (await seriousA11yViolations(page)).map((v) => v.id);
    expect(ids).toEqual(expect.arrayContaining(["image-alt", "label"]));
    await context.close();
  });
});
