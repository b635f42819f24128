// The Settings page (issue 17 item 5) in real Chromium: a colour failing contrast is refused with a
// clear message and nothing changes; a logo SVG with a script is stored sanitised and served by the
// facade under headers that could not run one anyway; the payment page shows the brand at 360 px
// and stays axe-clean; the page itself is axe-clean in both languages at 1280 and 360; and every
// mutation it sends is replayed with each lower role, cross-site and as text/plain (refusedThenMade).
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { MerchantRole } from "../core/src/domain/caller.ts";
import { PHONE, seriousA11yViolations, screenshot, useBrowser } from "./support/browser.ts";
import { dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { appPage, checkPage, dashboardUrl, LANGUAGES, signedInPage, VIEWPORTS } from "./support/dashboard-browser.ts";
import { refusedThenMade as refusedThenMade_, ROLES, snapshotButSessions } from "./support/dashboard-replay.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack();
const browser = useBrowser();
let m: Merchant;
let admin: { id: string; email: string; password: string };
const session = {} as Record<MerchantRole, string>;

const url = (p: string) => dashboardUrl(stack(), p);
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="40" viewBox="0 0 120 40" onload="alert('onload')">
  <script>alert('script')</script>
  <foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></body></foreignObject>
  <use xlink:href="https://evil.example/sprite.svg#a"/>
  <rect width="120" height="40" rx="6" fill="#0f766e"/>
  <text x="60" y="26" text-anchor="middle" font-size="16" fill="#ffffff">Tienda</text>
</svg>`;

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Comercial Marca S.A." });
  admin = await seedUser(s, m.merchantId, "admin");
  for (const role of ROLES) session[role] = await signedIn(s, await seedUser(s, m.merchantId, role));
});

const refusedThenMade = (page: Page, procedure: string, least: MerchantRole | null, act: () => Promise<unknown>) =>
  refusedThenMade_(stack(), session, page, procedure, least, act);

async function settingsPage(page: Page): Promise<void> {
  await page.goto(url("/settings"));
  await page.locator("main h1").waitFor();
  await poll(() => page.locator("main .loading").count()).toBe(0);
}

const merchantRow = async () =>
  (
    await stack().sql("select trade_name, brand_color, accent_color, embed_origins, time_zone, default_language from merchants where id = $1", [m.merchantId])
  )[0];

describe("settings in the dashboard", () => {
  test("a colour failing contrast is refused with its ratio and nothing changes; a good one is saved (replayed by role)", async () => {
    const { page, close, csp } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    await settingsPage(page);
    const before = await snapshotButSessions(stack());
    await page.getByLabel("Trade name").fill("Tienda Marca");
    await page.getByLabel("Brand colour (#rrggbb)").fill("#808080");
    // The preview says it before the core does.
    await poll(() => page.locator("[data-contrast]").first().innerText()).toContain("4.19:1");
    await page.getByRole("button", { name: "Save" }).click();
    const alert = page.locator(".notice, [role=alert]").filter({ hasText: "contrasts only" });
    await poll(() => alert.count()).toBeGreaterThan(0);
    expect(await alert.first().innerText()).toContain(
      "brand_color: #808080 contrasts only 4.19:1 with the dark (#1b1f24) text the pages put on it; at least 4.5:1 is needed",
    );
    expect(await snapshotButSessions(stack())).toEqual(before);
    expect((await merchantRow())!.trade_name).toBe("Comercial Marca S.A.");

    await page.getByLabel("Brand colour (#rrggbb)").fill("#1d4ed8");
    await page.getByLabel("Accent colour (#rrggbb)").fill("#ffd400");
    await page.getByLabel("Time zone (IANA)").fill("America/El_Salvador");
    await page.getByLabel("Dashboard default language").selectOption("en");
    await refusedThenMade(page, "settings.update", "admin", () => page.getByRole("button", { name: "Save" }).click());
    await page.getByText("Settings saved.").waitFor();
    expect(await merchantRow()).toMatchObject({
      trade_name: "Tienda Marca",
      brand_color: "#1d4ed8",
      accent_color: "#ffd400",
      time_zone: "America/El_Salvador",
      default_language: "en",
    });
    // The audit log has the change, by this admin.
    const [audited] = await stack().sql("select action, object_id from audit_log where merchant_id = $1 order by seq desc limit 1", [m.merchantId]);
    expect(audited).toEqual({ action: "update_merchant_settings", object_id: m.merchantId });
    expect(csp).toEqual([]);
    await close();
  });

  test("an SVG logo with a script is stored sanitised and served by the facade so that nothing could run (replayed by role)", async () => {
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    await settingsPage(page);
    await refusedThenMade(page, "settings.uploadLogo", "admin", () =>
      page.getByLabel("Logo file").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(HOSTILE_SVG) }),
    );
    await page.getByText("Logo saved.").waitFor();
    const logoUrl = (await page.locator("[data-logo-url]").getAttribute("data-logo-url"))!;
    expect(logoUrl).toMatch(/^\/assets\/logos\/[0-9a-f]{64}\.svg$/);
    const res = await stack().http.get(logoUrl);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers["content-disposition"]).toBe("inline");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.text).not.toMatch(/script|onload|onerror|foreignObject|evil\.example|alert/i);
    expect(res.text).toContain('<rect width="120" height="40" rx="6" fill="#0f766e"/>');
    // Another digest, or the right digest with the wrong extension, is not served.
    expect((await stack().http.get(logoUrl.replace(/[0-9a-f]{64}/, "0".repeat(64)))).status).toBe(404);
    expect((await stack().http.get(logoUrl.replace(/\.svg$/, ".png"))).status).toBe(404);
    // Opened on its own in the browser, it runs nothing.
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${stack().baseUrl}${logoUrl}`);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    await close();
  });

  test("the payment page shows the brand at 360 px and stays axe-clean, with no CSP violation", async () => {
    const logo = (await stack().sql("select sha256 from merchant_logos where merchant_id = $1", [m.merchantId]))[0]!.sha256 as string;
    const p = await createOk(stack().http, m.testApiKey, { amount: "10000" });
    const { page, close, csp } = await appPage(browser(), { ...PHONE, locale: "es-GT" });
    await page.goto(`${stack().publicBaseUrl}/pay/${p.id}`);
    const band = page.locator("[data-brand-bar]");
    await band.waitFor();
    expect(await band.innerText()).toContain("Tienda Marca");
    const img = band.locator("img");
    expect(await img.getAttribute("src")).toBe(`/assets/logos/${logo}.svg`);
    await poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // The accent behind the band with dark text on it, the brand behind the pay button with white.
    expect(await band.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color])).toEqual(["rgb(255, 212, 0)", "rgb(27, 31, 36)"]);
    const pay = page.locator("button.button:not(.secondary)").first();
    expect(await pay.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color])).toEqual(["rgb(29, 78, 216)", "rgb(255, 255, 255)"]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(csp).toEqual([]);
    await screenshot(page, "settings-branded-payment-360");
    await close();
  });

  test("the Settings page is axe-clean in both languages at 1280 and 360", async () => {
    for (const { lang, locale } of LANGUAGES) {
      for (const viewport of VIEWPORTS) {
        const { page, close, csp } = await signedInPage(stack(), browser(), admin, { ...viewport.options, locale });
        // The user's own choice in this browser wins over the merchant's default (English, set above).
        await page.addInitScript((chosen) => localStorage.setItem("paytami.dashboard.lang", chosen), lang);
        await settingsPage(page);
        expect(await page.locator("html").getAttribute("lang")).toBe(lang);
        await checkPage(page, `settings-${lang}-${viewport.name}`, viewport.options.viewport.width);
        expect(csp).toEqual([]);
        await close();
      }
    }
  });

  test("the dashboard starts in the merchant's default language and shows times in its zone", async () => {
    // A Spanish browser with no choice of its own: the merchant's default (English, set above) applies.
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "es-GT" });
    await settingsPage(page);
    await poll(() => page.locator("html").getAttribute("lang")).toBe("en");
    expect(await page.locator("main h1").innerText()).toBe("Settings");
    expect((await dashQuery(stack(), "auth.me", undefined, { session: session.admin })).data).toMatchObject({
      time_zone: "America/El_Salvador",
      default_language: "en",
    });
    await close();
  });

  test("removing the logo (replayed by role) takes it off the page and the facade", async () => {
    const logo = (await stack().sql("select sha256 from merchant_logos where merchant_id = $1", [m.merchantId]))[0]!.sha256 as string;
    const { page, close } = await signedInPage(stack(), browser(), admin, { locale: "en-US" });
    await settingsPage(page);
    await refusedThenMade(page, "settings.removeLogo", "admin", () => page.getByRole("button", { name: "Remove logo" }).click());
    await page.getByText("No logo.").waitFor();
    expect(await stack().sql("select 1 from merchant_logos where merchant_id = $1", [m.merchantId])).toHaveLength(0);
    expect((await stack().http.get(`/assets/logos/${logo}.svg`)).status).toBe(404);
    await close();
  });
});
