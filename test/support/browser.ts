// Real Chromium for page tests: Debian's `chromium` (installed by .ci/run when missing) driven by
// playwright-core, an axe-core scan injected over CDP (so the page's strict CSP stays on), and
// screenshots kept under test-results/screenshots/ as CI artifacts.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  const found = CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`No Chromium found (tried ${CANDIDATES.join(", ")}); install Debian's chromium or set CHROMIUM_PATH.`);
  return found;
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../test-results/screenshots");

/** A phone the size the issues name: 360×640, touch, Spanish by default. */
export const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** One browser per test file, closed after it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      // CI runs as root in a container without a user namespace sandbox.
      args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("useBrowser(): the browser starts in beforeAll");
    return browser;
  };
}

/** A fresh context (no cookies, own storage) with the given locale; close it when done. */
export function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ locale: "es-GT", ...options });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9._-]+/gi, "-")}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now and returns the serious and critical violations.
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern,
 * so the scan does not need `unsafe-inline` or a relaxed policy.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`${axeSource}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v: any) => ({
      id: String(v.id),
      impact: v.impact ?? null,
      help: String(v.help),
      targets: v.nodes.map((n: any) => String(n.target.join(" "))),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
