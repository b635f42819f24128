// A merchant's branding (issue 17 item 5) on the two pages its customers see, in real Chromium on the
// real stack: the link page (/l/{id}) and the hosted payment page (/pay/{id}) show its trade name (not
// its legal name), its PNG logo from /assets/logos/<sha256>.png (loaded with 200), the accent behind
// the band and the brand colour behind the pay button, each with the text colour Settings computed;
// at 360×640 and 1280×800, with no horizontal scroll, no serious or critical axe violation and no CSP
// report. A merchant with no branding gets the pages' defaults: no band, no brand stylesheet, the
// dark button, its trade name in the heading.
import { createHash } from "node:crypto";
import type { BrowserContextOptions, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { makePng } from "../core/src/domain/settings/png-fixture.ts";
import { PHONE, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";
import { appPage } from "./support/dashboard-browser.ts";
import { createOk, useStack } from "./support/expect.ts";
import { createLink } from "./support/link-fixtures.ts";
import type { Merchant } from "./support/stack.ts";
import { trpcClient } from "./support/trpc.ts";

const stack = useStack();
const browser = useBrowser();

const VIEWPORTS: { name: string; width: number; options: BrowserContextOptions }[] = [
  { name: "360", width: 360, options: PHONE },
  { name: "1280", width: 1280, options: { viewport: { width: 1280, height: 800 } } },
];

const LOGO = makePng(160, 48);
const LOGO_SHA = createHash("sha256").update(LOGO).digest("hex");
const BRAND = { color: "#0f766e", rgb: "rgb(15, 118, 110)", text: "rgb(255, 255, 255)" };
const ACCENT = { color: "#fde68a", rgb: "rgb(253, 230, 138)", text: "rgb(27, 31, 36)" };
/** The pages' own button (facade/src/pages/stylesheet.ts) when the merchant chose no colour. */
const DEFAULT_BUTTON = ["rgb(27, 31, 36)", "rgb(255, 255, 255)"];

let branded: Merchant;
let plain: Merchant;

beforeAll(async () => {
  const s = stack();
  branded = await s.admin.createMerchant({ name: "Distribuidora Legal Quetzal S.A." });
  plain = await s.admin.createMerchant({ name: "Panadería Sin Marca" });
  // As an operator would: the core's settings.* procedures (what `paytami settings set` calls).
  const operator = trpcClient(s, s.internalToken);
  await operator.settings.update.mutate({ merchant_id: branded.merchantId, trade_name: "Café Quetzal", brand_color: BRAND.color, accent_color: ACCENT.color });
  const saved = await operator.settings.uploadLogo.mutate({ merchant_id: branded.merchantId, content_type: "image/png", data_base64: LOGO.toString("base64") });
  expect(saved.logo?.url).toBe(`/assets/logos/${LOGO_SHA}.png`);
});

/** The two customer pages of a merchant: a payable link's page and a fresh payment's page. */
async function pagesOf(m: Merchant): Promise<{ name: string; url: string }[]> {
  const link = await createLink(stack(), m, { title: "Café de altura", fixed_amount_minor: "7500" });
  const payment = await createOk(stack().http, m.testApiKey, { amount: "7500" });
  return [
    { name: "link", url: `${stack().baseUrl}/l/${link.id}` },
    { name: "payment", url: `${stack().publicBaseUrl}/pay/${payment.id}` },
  ];
}

const colorsOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);

const PAY_BUTTON = "button.button:not(.secondary)";

/** Every logo response the page got, by path. */
function logoResponses(page: Page): Map<string, number> {
  const seen = new Map<string, number>();
  page.on("response", (res) => {
    const path = new URL(res.url()).pathname;
    if (path.startsWith("/assets/logos/")) seen.set(path, res.status());
  });
  return seen;
}

/** The checks every page gets, branded or not: fits the viewport, axe-clean, no CSP report. */
async function fitsAndClean(page: Page, width: number, csp: string[]): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(csp).toEqual([]);
}

describe("branding on the link page and the hosted payment page", () => {
  test("both pages show the trade name, the logo and the colours at 360 and 1280, with no horizontal scroll and axe-clean", async () => {
    const logoPath = `/assets/logos/${LOGO_SHA}.png`;
    for (const target of await pagesOf(branded)) {
      for (const viewport of VIEWPORTS) {
        const label = `${target.name} at ${viewport.name}`;
        const { page, csp, close } = await appPage(browser(), { ...viewport.options, locale: "es-GT" });
        const logos = logoResponses(page);
        const res = await page.goto(target.url);
        expect(res?.status(), label).toBe(200);
        const band = page.locator("[data-brand-bar]");
        await band.waitFor();
        expect(await band.innerText(), label).toContain("Café Quetzal");
        expect(await page.locator("body").innerText(), label).not.toContain("Distribuidora Legal");
        const img = band.locator("img.brand-logo");
        expect(await img.getAttribute("src"), label).toBe(logoPath);
        await expect
          .poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 15_000 })
          .toBe(160);
        expect(logos.get(logoPath), label).toBe(200);
        expect(await img.isVisible(), label).toBe(true);
        expect(await colorsOf(page, "[data-brand-bar]"), label).toEqual([ACCENT.rgb, ACCENT.text]);
        expect(await colorsOf(page, PAY_BUTTON), label).toEqual([BRAND.rgb, BRAND.text]);
        await fitsAndClean(page, viewport.width, csp);
        await screenshot(page, `branding-${target.name}-${viewport.name}`);
        await close();
      }
    }
  });

  test("with no branding set both pages show the defaults: no band, no brand stylesheet, the dark button, the trade name", async () => {
    for (const target of await pagesOf(plain)) {
      for (const viewport of VIEWPORTS) {
        const label = `${target.name} at ${viewport.name}`;
        const { page, csp, close } = await appPage(browser(), { ...viewport.options, locale: "es-GT" });
        const logos = logoResponses(page);
        const res = await page.goto(target.url);
        expect(res?.status(), label).toBe(200);
        await page.locator(PAY_BUTTON).first().waitFor();
        expect(await page.locator("[data-brand-bar]").count(), label).toBe(0);
        expect(await page.locator("img").count(), label).toBe(0);
        expect(await page.locator('link[href^="/assets/brand/"]').count(), label).toBe(0);
        expect(logos.size, label).toBe(0);
        expect(await page.locator(target.name === "link" ? "p.merchant" : "main h1").innerText(), label).toContain("Panadería Sin Marca");
        expect(await colorsOf(page, PAY_BUTTON), label).toEqual(DEFAULT_BUTTON);
        await fitsAndClean(page, viewport.width, csp);
        await screenshot(page, `branding-default-${target.name}-${viewport.name}`);
        await close();
      }
    }
  });
});
