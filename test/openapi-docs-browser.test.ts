// GET /docs in real Chromium at 1280 and 360 px: Redoc renders the facade's own OpenAPI document with
// the getting-started steps in English and Spanish, loads nothing from another origin (its CSP
// forbids it, and every request is watched), no CSP violation, axe-clean; screenshots under
// test-results/screenshots/docs-*.png. Also what the facade serves for it, read over HTTP.
import { describe, expect, test } from "vitest";
import { useStack } from "./support/expect.ts";
import path from "node:path";
import { newContext, SCREENSHOT_DIR, screenshot, seriousA11yViolations, useBrowser } from "./support/browser.ts";

const stack = useStack();
const browser = useBrowser();

describe("the API reference page", () => {
  test("is served with a CSP that allows only its own origin, and Redoc from a hashed path cached for good", async () => {
    const res = await stack().http.get("/docs");
    expect(res.status).toBe(200);
    expect(res.header("content-type")).toMatch(/^text\/html/);
    const csp = res.header("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const script = /<script src="(\/assets\/redoc-[0-9a-f]{16}\.js)"><\/script>/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    const asset = await stack().http.get(script!);
    expect(asset.status).toBe(200);
    expect(asset.header("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.text.length).toBeGreaterThan(500_000);

    const document = await stack().http.get("/v1/openapi.json");
    expect(document.status).toBe(200);
    expect(document.json.openapi).toBe("3.1.0");
    expect(document.json.servers).toEqual([{ url: stack().baseUrl, description: "This Paytami service" }]);
  });

  test.each([
    [1280, 900],
    [360, 640],
  ])("renders in Chromium at %i px: English and Spanish steps, every operation, nothing from elsewhere, axe-clean", async (width, height) => {
    const context = await newContext(browser(), { viewport: { width, height }, locale: "en-US" });
    const page = await context.newPage();
    const origin = new URL(stack().baseUrl).origin;
    const elsewhere: string[] = [];
    const csp: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !url.startsWith("blob:") && !url.startsWith("data:")) elsewhere.push(url);
    });
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) csp.push(msg.text());
    });
    const res = await page.goto(`${stack().baseUrl}/docs`);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator("body").innerText(), { timeout: 30_000 }).toContain("Primeros pasos");
    const text = await page.locator("body").innerText();
    expect(text).toContain("Getting started");
    expect(text).toContain("Verifique los webhooks");
    for (const summary of ["Create a payment", "Pay a link", "Refund a payment", "List events"]) expect(text).toContain(summary);
    if (width === 360) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, `docs-${width}`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `docs-${width}-top.png`) });
    expect(elsewhere).toEqual([]);
    expect(csp).toEqual([]);
    await context.close();
  });
});
