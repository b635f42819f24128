// The core's HTTP port: /metrics is for internal callers only (the internal token as a
// bearer token), /healthz stays open for load balancers and orchestrators.

import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { HttpClient } from "./support/http.ts";
import { useStack } from "./support/expect.ts";

const stack = useStack();
const core = () => new HttpClient(stack().coreHttpUrl);

describe("core /metrics", () => {
  test("with the internal token as bearer → 200 Prometheus text", async () => {
    const res = await core().get("/metrics", { headers: { authorization: `Bearer ${stack().internalToken}` } });
    expect(res.status, res.text.slice(0, 200)).toBe(200);
    expect(res.header("content-type")).toMatch(/^text\/plain/);
    expect(res.text).toContain("# HELP");
  });

  test.each([
    ["no authorization", () => undefined],
    ["a wrong token", () => `Bearer ${randomBytes(24).toString("hex")}`],
    ["the token with one character changed", (t: string) => `Bearer ${t.slice(0, -1)}${t.endsWith("0") ? "1" : "0"}`],
    ["a prefix of the token", (t: string) => `Bearer ${t.slice(0, 8)}`],
    ["the token without the Bearer scheme", (t: string) => t],
    ["the token as Basic credentials", (t: string) => `Basic ${Buffer.from(`x:${t}`).toString("base64")}`],
    ["an empty bearer", () => "Bearer "],
  ])("%s → 401 unauthorized JSON, no metrics", async (_, authorization) => {
    const res = await core().get("/metrics", { headers: { authorization: authorization(stack().internalToken) } });
    expect(res.status, res.text.slice(0, 200)).toBe(401);
    expect(res.header("content-type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
    expect(res.text).not.toContain("# HELP");
  });

  test("/healthz needs no token", async () => {
    const res = await core().get("/healthz");
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
  });
});
