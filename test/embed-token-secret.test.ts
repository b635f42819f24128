// Embed tokens (the `token` of a checkout session's checkout_url) are signed with
// EMBED_TOKEN_SECRET (DESIGN §3): one secret for every core, kept across restarts, so a
// token minted by one core opens the embed page through any other core and after a
// restart. A core without that secret refuses to start instead of inventing one.

import { spawn } from "node:child_process";
import { beforeAll, describe, expect, test } from "vitest";
import type { HttpClient } from "./support/http.ts";
import type { Merchant } from "./support/stack.ts";
import { launchCommand } from "./support/stack.ts";
import { createOk, useStack } from "./support/expect.ts";

const stack = useStack({ allow503: true });
let m: Merchant;
let second: HttpClient;

beforeAll(async () => {
  m = await stack().admin.createMerchant({ name: "Tienda Embed" });
  second = await stack().addInstance();
});

/** The path + query of a fresh checkout session's embed URL, minted through `client`. */
async function embedPath(client: HttpClient, paymentId: string): Promise<string> {
  const session = await client.get(`/v1/payments/${paymentId}/checkout_session`);
  expect(session.status, session.text).toBe(200);
  const url = new URL(session.json.checkout_url);
  expect(url.searchParams.get("token")).toBeTruthy();
  return url.pathname + url.search;
}

async function expectEmbedOpens(client: HttpClient, path: string, paymentId: string): Promise<void> {
  const page = await client.get(path);
  expect(page.status, `${client.baseUrl}${path}: ${page.text.slice(0, 200)}`).toBe(200);
  expect(page.text).toContain(paymentId);
}

describe("embed tokens across cores and restarts", () => {
  test("a token minted through one instance opens the embed page through the other, both ways", async () => {
    const s = stack();
    const p = await createOk(s.http, m.testApiKey, { amount: "4200" });
    await expectEmbedOpens(second, await embedPath(s.http, p.id), p.id);
    await expectEmbedOpens(s.http, await embedPath(second, p.id), p.id);
    // Still a real check on the second instance: a token for another payment is refused there.
    const other = await createOk(s.http, m.testApiKey, { amount: "4201" });
    const foreign = (await embedPath(s.http, other.id)).replace(other.id, p.id);
    expect((await second.get(foreign)).status).toBe(403);
  });

  test("a token minted before a core restart still opens the embed page after it", async () => {
    const s = stack();
    const p = await createOk(s.http, m.testApiKey, { amount: "4300" });
    const path = await embedPath(s.http, p.id);
    await expectEmbedOpens(s.http, path, p.id);
    await s.restart("core");
    await expectEmbedOpens(s.http, path, p.id);
  });
});

/** Runs the core with only `env` (no database is reached: configuration fails first); its exit code and output. */
function runCore(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { command, args } = launchCommand("core");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("a core without a usable EMBED_TOKEN_SECRET", () => {
  // Port 1 on loopback: if configuration did not stop the core, it would fail on the database instead.
  const base = { DATABASE_URL: "postgres://paytami@127.0.0.1:1/none", CORE_GRPC_ADDR: "127.0.0.1:1", CORE_HTTP_PORT: "1" };

  test.each([
    ["missing", {}, "EMBED_TOKEN_SECRET is not set"],
    ["empty", { EMBED_TOKEN_SECRET: "" }, "EMBED_TOKEN_SECRET is not set"],
    ["too short", { EMBED_TOKEN_SECRET: "x".repeat(31) }, "EMBED_TOKEN_SECRET is shorter than 32 characters"],
  ])("%s → refuses to start, saying why", async (_, env, message) => {
    const { code, output } = await runCore({ ...base, ...env });
    expect(code, output).toBe(1);
    expect(output).toContain(message);
    expect(output).toContain("core failed to start");
  });
});
