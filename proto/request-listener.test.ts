// requestListener over real HTTP on loopback: what a failed handler answers, and what it logs.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { requestListener } from "./request-listener.ts";

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

async function serve(handle: Parameters<typeof requestListener>[1]): Promise<{ base: string; logged: unknown[] }> {
  const logged: unknown[] = [];
  server = createServer(requestListener({ error: (fields) => logged.push(fields.err) }, handle)).listen(0, "127.0.0.1");
  await once(server, "listening");
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged };
}

describe("requestListener", () => {
  test("passes a handler's answer through untouched", async () => {
    const { base, logged } = await serve(async (_req, res) => {
      await Promise.resolve();
      res.writeHead(201, { "content-type": "text/plain" });
      res.end("made");
    });
    const res = await fetch(base);
    expect([res.status, await res.text()]).toEqual([201, "made"]);
    expect(logged).toEqual([]);
  });

  test("a handler that rejects before answering: 500 internal_error without its cause, which is logged", async () => {
    const cause = new Error("password=hunter2");
    const { base, logged } = await serve(() => Promise.reject(cause));
    const res = await fetch(base, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal_error", message: "Internal error." } });
    expect(text).not.toContain("hunter2");
    expect(logged).toEqual([cause]);
  });

  test("a handler that rejects after its headers went out: the connection is cut, not finished with a second answer", async () => {
    const { base, logged } = await serve(async (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("part");
      await Promise.resolve();
      throw new Error("midway");
    });
    const res = await fetch(base, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(logged).toHaveLength(1);
  });
});
