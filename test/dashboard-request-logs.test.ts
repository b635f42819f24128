// The "Request logs" pages in real Chromium against a real stack (issue 17 item 4): a developer
// sees the merchant's API requests (recorded by the facade, written by the core through NATS),
// filters them, opens one and reads its redacted bodies as inert text; a viewer has no such page.
// Both pages in both languages at 1280 px and 360×640 with axe. Screenshots:
// test-results/screenshots/dashboard-request-logs-*.png.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { useBrowser } from "./support/browser.ts";
import { seedUser } from "./support/dashboard.ts";
import { checkPage, dashboardUrl, LANGUAGES, signedInPage, VIEWPORTS } from "./support/dashboard-browser.ts";
import { eventually } from "./support/eventually.ts";
import { useStack, validBody } from "./support/expect.ts";
import type { Merchant } from "./support/stack.ts";

const stack = useStack({ env: { REQUEST_LOG_FLUSH: "50ms" } });
const browser = useBrowser();
let m: Merchant;
let developer: { email: string; password: string };
let viewer: { email: string; password: string };
const CARD = "4242424242424242";
const HOSTILE = `<img src=x onerror="window.__pwned=1">`;
const made = { ok: "", failed: "" };

const url = (p: string) => dashboardUrl(stack(), p);
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

async function mainText(page: Page): Promise<string> {
  await page.locator("main h1").waitFor();
  await poll(() => page.locator("main .loading").count()).toBe(0);
  return page.locator("main").innerText();
}

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Bitácora" });
  developer = await seedUser(stack(), m.merchantId, "developer");
  viewer = await seedUser(stack(), m.merchantId, "viewer");
  made.ok = `ok-${randomUUID()}`;
  made.failed = `bad-${randomUUID()}`;
  const created = await stack().http.createPayment(m.testApiKey, validBody({ description: `${HOSTILE} card ${CARD}` }), {
    headers: { "Request-Id": made.ok },
  });
  expect(created.status).toBe(201);
  const refused = await stack().http.post("/v1/payments", { key: m.testApiKey, body: validBody(), headers: { "Request-Id": made.failed } });
  expect(refused.status).toBe(400);
  await eventually(
    async () => {
      const rows = await stack().sql("select 1 from request_logs where request_id = any($1)", [[made.ok, made.failed]]);
      return rows.length === 2 || undefined;
    },
    15_000,
    "both logs written",
  );
});

describe("request logs in the dashboard", () => {
  test("a developer lists the requests, filters 4xx, opens one and reads its redacted bodies as text", async () => {
    const { page, csp, close } = await signedInPage(stack(), browser(), developer, { locale: "en-US" });
    try {
      await page.goto(url("/"));
      await page.getByRole("link", { name: "Request logs" }).click();
      await page.waitForURL(url("/request-logs"));
      const text = await mainText(page);
      expect(text).toContain("POST /v1/payments");
      expect(text).toContain(made.ok);
      expect(text).toContain("400 idempotency_key_required");

      await page.getByLabel("Status").selectOption("4xx");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/status=4xx/);
      await poll(() => page.locator("main").innerText()).not.toContain(made.ok);
      expect(await page.locator("main").innerText()).toContain(made.failed);

      await page.getByLabel("Request id").fill(made.ok);
      await page.getByLabel("Status").selectOption("");
      await page.getByRole("button", { name: "Apply" }).click();
      // The 4xx list already has one row (the refused request): wait for the list of the new filter.
      await page.waitForURL(/request=/);
      await poll(() => page.locator("main tbody").innerText()).toContain(made.ok);
      await poll(() => page.locator("main tbody tr").count()).toBe(1);
      await page.getByRole("link", { name: "POST /v1/payments" }).click();
      await page.waitForURL(/\/request-logs\/\d+$/);
      await mainText(page);
      await expect.poll(() => page.getByTestId("log-request-id").innerText()).toBe(made.ok);
      const requestBody = await page.getByTestId("log-request-body").innerText();
      expect(JSON.parse(requestBody)).toMatchObject({ description: `${HOSTILE} card [redacted]` });
      expect(requestBody).not.toContain(CARD);
      expect(JSON.parse(await page.getByTestId("log-response-body").innerText())).toMatchObject({ description: `${HOSTILE} card [redacted]` });
      // The stored text stayed text: nothing of it became an element, nothing ran.
      expect(await page.locator("main img").count()).toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(csp).toEqual([]);
    } finally {
      await close();
    }
  });

  test("a viewer has no Request logs in the navigation, and the page (typed in) shows no log, only the refusal", async () => {
    const { page, close } = await signedInPage(stack(), browser(), viewer, { locale: "en-US" });
    try {
      await page.goto(url("/"));
      await page.locator("main h1").waitFor();
      expect(await page.getByRole("link", { name: "Request logs" }).count()).toBe(0);
      await page.goto(url("/request-logs"));
      // The core refuses a role as `unauthorized` (HTTP 401), which the app words as it words every 401.
      await poll(() => page.locator("main").innerText()).toMatch(/Your role does not allow this\.|Your session ended/);
      expect(await page.locator("main").innerText()).not.toContain(made.ok);
    } finally {
      await close();
    }
  });

  test("both pages, both languages, 1280 px and 360×640: no horizontal scroll, axe-clean", async () => {
    const [row] = await stack().sql<{ seq: string }>("select seq::text from request_logs where request_id = $1", [made.ok]);
    const routes = [
      ["list", "/request-logs"],
      ["log", `/request-logs/${row!.seq}`],
    ] as const;
    for (const { lang, locale } of LANGUAGES) {
      for (const viewport of VIEWPORTS) {
        const { page, csp, close } = await signedInPage(stack(), browser(), developer, { locale, ...viewport.options });
        try {
          for (const [name, route] of routes) {
            await page.goto(url(route));
            await mainText(page);
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
            await checkPage(page, `request-logs-${name}-${lang}-${viewport.name}`, viewport.options.viewport.width);
          }
          expect(csp).toEqual([]);
        } finally {
          await close();
        }
      }
    }
  }, 180_000);
});
