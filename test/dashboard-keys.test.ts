// The "API keys" page (issue 17 item 1) in real Chromium against a real stack: a developer creates a
// key (its secret shown once, in a dialog), uses it against the facade's REST API, revokes it (401
// from then on), and rolls one (old and new keys both work until the old one's expiry, then only
// the new one). Each mutation the page sends is replayed with a lower role, cross-site and as
// text/plain (refusedThenMade). The page and its dialogs are axe-clean in both languages at 1280 and
// 360 px, and no key's secret is in any process's log.
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { MerchantRole } from "../core/src/domain/caller.ts";
import { useBrowser } from "./support/browser.ts";
import { dashMutation, dashQuery, seedUser, signedIn } from "./support/dashboard.ts";
import { checkPage, dashboardUrl, LANGUAGES, signedInPage, VIEWPORTS } from "./support/dashboard-browser.ts";
import { refusedThenMade as refusedThenMade_, ROLES } from "./support/dashboard-replay.ts";
import { createOk, expectError, useStack, validBody } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack();
const browser = useBrowser();
let m: Merchant;
let developer: { id: string; email: string; password: string };
const session = {} as Record<MerchantRole, string>;
/** Every secret this file saw, for the log check at the end. */
const secrets: string[] = [];

const url = (p: string) => dashboardUrl(stack(), p);
const poll = <T>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

beforeAll(async () => {
  const s = stack();
  m = await s.admin.createMerchant({ name: "Tienda Llaves" });
  developer = await seedUser(s, m.merchantId, "developer");
  for (const role of ROLES) session[role] = await signedIn(s, await seedUser(s, m.merchantId, role));
});

const refusedThenMade = (page: Page, procedure: string, act: () => Promise<unknown>) => refusedThenMade_(stack(), session, page, procedure, "developer", act);

/** POST /v1/payments with `key`: its status (201 made, 401 refused with `unauthorized`). */
async function paymentWith(key: string): Promise<number> {
  const res = await stack().http.createPayment(key, validBody());
  if (res.status !== 201) expectError(res, 401, "unauthorized");
  return res.status;
}

/** The page with its keys loaded. */
async function keysPage(page: Page): Promise<void> {
  await page.goto(url("/api-keys"));
  await page.getByRole("table", { name: /^(Keys|Claves)$/ }).waitFor();
  await poll(() => page.locator("main .loading").count()).toBe(0);
}

/** The secret the open dialog shows; then "Done", and the dialog and the secret are gone from the page. */
async function takeSecret(page: Page, title: string): Promise<string> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor();
  const secret = (await dialog.getByTestId("api-key-secret").innerText()).trim();
  expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
  await dialog.getByRole("button", { name: "Copy: Secret key" }).waitFor();
  await dialog.getByRole("button", { name: "Done, I have saved it" }).click();
  await poll(() => page.getByRole("dialog").count()).toBe(0);
  expect(await page.content()).not.toContain(secret);
  secrets.push(secret);
  return secret;
}

const rowOf = (page: Page, secret: string) => page.getByRole("row").filter({ hasText: `…${secret.slice(-4)}` });

describe("API keys in the dashboard", () => {
  test("create a key (secret shown once), use it against the API, see it used, revoke it → 401", async () => {
    const { page, close } = await signedInPage(stack(), browser(), developer, { locale: "en-US" });
    page.on("dialog", (dialog) => void dialog.accept());
    await keysPage(page);
    await refusedThenMade(page, "apiKeys.create", () => page.getByRole("button", { name: "Create key" }).click());
    const secret = await takeSecret(page, "Key created");
    // The list never has the secret, only its last four.
    expect(JSON.stringify((await dashQuery(stack(), "apiKeys.list", undefined, { session: session.developer })).data)).not.toContain(secret);
    await expect.poll(() => rowOf(page, secret).count()).toBe(1);
    expect(await rowOf(page, secret).innerText()).toContain("Never");

    expect(await paymentWith(secret)).toBe(201);
    // "Last used" shows up (written after the request, not by it).
    await poll(async () => {
      await keysPage(page);
      return rowOf(page, secret).innerText();
    }).not.toContain("Never");

    await refusedThenMade(page, "apiKeys.revoke", () => page.getByRole("button", { name: `Revoke the key ending in ${secret.slice(-4)}` }).click());
    await page.getByText(`The key ending in ${secret.slice(-4)} was revoked.`).waitFor();
    expect(await paymentWith(secret)).toBe(401);
    await poll(() => rowOf(page, secret).innerText()).toContain("Revoked");
    await close();
  }, 180_000);

  test("roll a key: old and new both work until the old one's expiry, then only the new one", async () => {
    const s = stack();
    const created = await dashMutation(s, "apiKeys.create", {}, { session: session.developer });
    const old: string = created.data.api_key;
    secrets.push(old);
    const { page, close } = await signedInPage(s, browser(), developer, { locale: "en-US" });
    await keysPage(page);
    await page.getByRole("button", { name: `Roll the key ending in ${old.slice(-4)}` }).click();
    const dialog = page.getByRole("dialog", { name: `Roll the key ending in ${old.slice(-4)}` });
    await dialog.getByLabel("The current key stops working").selectOption({ label: "In 1 hour" });
    await refusedThenMade(page, "apiKeys.roll", () => dialog.getByRole("button", { name: "Roll key" }).click());
    await page
      .getByRole("dialog", { name: "Key rolled" })
      .getByText(/^The previous key stops working on /)
      .waitFor();
    const rolled = await takeSecret(page, "Key rolled");
    expect([await paymentWith(old), await paymentWith(rolled)]).toEqual([201, 201]);
    const [row] = await s.sql<{ expires_at: Date }>("select expires_at from api_keys where id = $1", [created.data.id]);
    expect(row!.expires_at.getTime() - Date.now()).toBeGreaterThan(3_500_000);
    expect(row!.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    await poll(() => rowOf(page, old).innerText()).not.toContain("Does not expire");

    // The smallest steps the core allows are seconds: the rolled key, kept 5 s (room for a loaded machine), works until then and not after.
    const again = await dashMutation(s, "apiKeys.roll", { id: (await keyId(rolled))!, expires_in_seconds: 5 }, { session: session.developer });
    expect(again.status, again.message).toBe(200);
    const newest: string = again.data.new_key.api_key;
    secrets.push(newest);
    const expiresAt = new Date(again.data.expires_at as string).getTime();
    expect([await paymentWith(rolled), await paymentWith(newest)]).toEqual([201, 201]);
    expect(Date.now()).toBeLessThan(expiresAt);
    await poll(() => paymentWith(rolled), 20_000).toBe(401);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect([await paymentWith(old), await paymentWith(newest)]).toEqual([201, 201]);

    // A time past the policy is refused, naming the limit, and nothing changes.
    const count = (await s.sql("select count(*)::int as n from api_keys where merchant_id = $1", [m.merchantId]))[0]!.n;
    const tooLate = await dashMutation(s, "apiKeys.roll", { id: (await keyId(newest))!, expires_in_seconds: 8 * 86_400 }, { session: session.developer });
    expect(tooLate.code).toBe("validation_error");
    expect(tooLate.message).toContain("604800 (7 days, API_KEY_ROLL_MAX)");
    expect((await s.sql("select count(*)::int as n from api_keys where merchant_id = $1", [m.merchantId]))[0]!.n).toBe(count);
    await close();
  }, 180_000);

  test("a viewer has no API keys page in the navigation, and the core refuses them the list", async () => {
    const viewer = await seedUser(stack(), m.merchantId, "viewer");
    const { page, close } = await signedInPage(stack(), browser(), viewer, { locale: "en-US" });
    await page.goto(url("/"));
    await page.getByRole("navigation").first().waitFor();
    expect(await page.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect((await dashQuery(stack(), "apiKeys.list", undefined, { session: session.viewer })).code).toBe("unauthorized");
    await close();
  });

  test("the page and its dialogs are axe-clean in both languages at 1280 and 360 px", async () => {
    for (const { lang, locale } of LANGUAGES) {
      for (const viewport of VIEWPORTS) {
        const { page, close } = await signedInPage(stack(), browser(), developer, { locale, ...viewport.options });
        await keysPage(page);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        await checkPage(page, `api-keys-${lang}-${viewport.name}`, viewport.options.viewport.width);
        const roll = page.getByRole("button", { name: lang === "en" ? /^Roll the key ending in/ : /^Rotar la clave que termina en/ }).first();
        await roll.click();
        await page.getByRole("dialog").waitFor();
        await checkPage(page, `api-keys-roll-${lang}-${viewport.name}`, viewport.options.viewport.width);
        await page.keyboard.press("Escape");
        await poll(() => page.getByRole("dialog").count()).toBe(0);
        await close();
      }
    }
  }, 240_000);

  test("a burst of 100 API requests through the facade writes the key's last_used_at once (counted by a trigger)", async () => {
    const s = stack();
    const created = await dashMutation(s, "apiKeys.create", {}, { session: session.developer });
    const secret: string = created.data.api_key;
    secrets.push(secret);
    await s.sql("create table if not exists key_writes (key_id text not null)");
    await s.sql(
      "create or replace function count_key_write() returns trigger language plpgsql as $$ begin insert into key_writes values (new.id); return new; end $$",
    );
    await s.sql("create or replace trigger count_key_writes after update on api_keys for each row execute function count_key_write()");
    const statuses = await Promise.all(Array.from({ length: 100 }, () => s.http.listPayments(secret).then((res) => res.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    await poll(async () => (await s.sql("select last_used_at from api_keys where id = $1", [created.data.id]))[0]!.last_used_at).not.toBeNull();
    // Another round while the minute has not passed: still the one write.
    await Promise.all(Array.from({ length: 20 }, () => s.http.listPayments(secret)));
    const listed = await dashQuery(s, "apiKeys.list", undefined, { session: session.developer });
    expect(listed.data.data.find((k: { id: string }) => k.id === created.data.id).last_used_at).not.toBeNull();
    expect((await s.sql("select count(*)::int as n from key_writes where key_id = $1", [created.data.id]))[0]!.n).toBe(1);
  });

  test("no key's secret appears in any process's log", async () => {
    const s = stack();
    // The merchant's own key, used and refused once more, besides those the tests above made and used.
    await createOk(s.http, m.testApiKey);
    secrets.push(m.testApiKey);
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const name of ["core", "facade"] as const) {
      const log = s.logText(name);
      expect(log.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(log, name).not.toContain(secret);
    }
  });
});

/** The id of the key whose secret is `secret` (the test reads the digest the core stored). */
async function keyId(secret: string): Promise<string | undefined> {
  const [row] = await stack().sql<{ id: string }>("select id from api_keys where digest = $1", [createHash("sha256").update(secret).digest("hex")]);
  return row?.id;
}
