// An embed token that has run out (EMBED_TOKEN_TTL=1s here) gets the error page, in a frame too.
import { describe, expect, test } from "vitest";
import { createOk, useStack } from "./support/expect.ts";
import { newContext, useBrowser } from "./support/browser.ts";
import { useShop } from "./support/shop.ts";

const stack = useStack({ env: { EMBED_TOKEN_TTL: "1s" } });
const browser = useBrowser();
const shop = useShop();

describe("expired embed token", () => {
  test("the framed checkout shows the error page once the token has expired", async () => {
    const m = await stack().admin.createMerchant({ name: "Tienda" });
    const p = await createOk(stack().http, m.testApiKey);
    const session = await stack().http.get(`/v1/payments/${p.id}/checkout_session`);
    const src = new URL(session.json.checkout_url);
    // Wait until the facade itself refuses the token (no clock is compared here, only its answer).
    await expect.poll(async () => (await stack().http.get(src.pathname + src.search)).status, { timeout: 10_000, interval: 250 }).toBe(403);
    const context = await newContext(browser());
    const page = await context.newPage();
    await page.goto(shop().framePageUrl(src.toString()));
    const frame = (await (await page.waitForSelector("#checkout")).contentFrame())!;
    await expect.poll(() => frame.locator("h1").innerText()).toBe("Enlace vencido");
    expect(await frame.locator("form").count()).toBe(0);
    await context.close();
  });
});
