// The dashboard app in real Chromium (test/support/browser.ts) against a stack: a page with its CSP
// violations collected, signed in as the app's own sign-in form does it or by the session cookie a
// sign-in left, and the per-page checks every dashboard page gets (no horizontal scroll, no serious
// or critical axe-core violation, a screenshot kept as an artifact).
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { newContext, PHONE, screenshot, seriousA11yViolations } from "./browser.ts";
import { signedIn } from "./dashboard.ts";
import type { Stack } from "./stack.ts";

/** The session cookie's name on a plain-http PUBLIC_BASE_URL (the facade's __Host- name is for https). */
export const SESSION_COOKIE = "paytami_session";

export const LANGUAGES = [
  { lang: "es", locale: "es-GT" },
  { lang: "en", locale: "en-US" },
] as const;

export const VIEWPORTS = [
  { name: "1280", options: { viewport: { width: 1280, height: 900 } } },
  { name: "360", options: PHONE as BrowserContextOptions & { viewport: { width: number; height: number } } },
] as const;

export interface AppPage {
  page: Page;
  context: BrowserContext;
  /** Every CSP violation the browser reported. */
  csp: string[];
  close: () => Promise<void>;
}

export const dashboardUrl = (stack: Stack, path: string): string => `${stack.baseUrl}/dashboard${path}`;

/** A fresh context (own cookies) and page, collecting CSP violations from the console. */
export async function appPage(browser: Browser, options: BrowserContextOptions = {}): Promise<AppPage> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const csp: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) csp.push(msg.text());
  });
  return { page, context, csp, close: () => context.close() };
}

/** Signs in on the sign-in page with the keyboard only (the e-mail field has the focus when the page opens). */
export async function signInByKeyboard(stack: Stack, page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto(dashboardUrl(stack, "/"));
  await page.waitForURL(dashboardUrl(stack, "/sign-in"));
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("email");
  await page.keyboard.type(user.email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await page.waitForURL(dashboardUrl(stack, "/"));
}

/**
 * A page signed in as `user` without going through the form: the core issues a session as a
 * sign-in through the facade would, and the context holds it in the cookie the facade would have set.
 */
export async function signedInPage(
  stack: Stack,
  browser: Browser,
  user: { email: string; password: string },
  options: BrowserContextOptions = {},
): Promise<AppPage> {
  const app = await appPage(browser, options);
  const token = await signedIn(stack, user);
  await app.context.addCookies([{ name: SESSION_COOKIE, value: token, url: stack.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return app;
}

/** Width, axe and a screenshot of the page as it is now (`name` becomes test-results/screenshots/dashboard-<name>.png). */
export async function checkPage(page: Page, name: string, width: number): Promise<void> {
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name}: horizontal scroll`).toBeLessThanOrEqual(width);
  expect(await seriousA11yViolations(page), name).toEqual([]);
  await screenshot(page, `dashboard-${name}`);
}
