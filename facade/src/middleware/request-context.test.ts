import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { requestContext } from "./request-context.ts";

// The access log line of a request, over real HTTP: written once the response has gone out (so the
// write is not between the answer and its client), with the status the client got.

interface Logged {
  line: { msg: string; status: number; path: string; request_id: string };
  /** Whether the response had been handed to the socket when the line was written. */
  answered: boolean;
}

const logged: Logged[] = [];
let current: ServerResponse | undefined;
let base: string;
const server = createServer();

beforeAll(async () => {
  const log = createLogger("request-context-test", {
    write: (text: string) => {
      logged.push({ line: JSON.parse(text) as Logged["line"], answered: current?.writableFinished ?? false });
    },
  });
  const app = new Koa();
  app.silent = true;
  app.use(requestContext(log));
  app.use(async (ctx, next) => {
    current = ctx.res;
    await next();
  });
  app.use((ctx) => {
    if (ctx.path === "/boom") throw new Error("a bug past every error handler");
    ctx.body = { ok: true };
  });
  const handle = app.callback();
  server.on("request", (req, res) => void handle(req, res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

const accessLines = () => logged.filter((entry) => entry.line.msg === "request");

describe("the access log", () => {
  test("writes a request's line after its response has gone out, with its request id", async () => {
    logged.length = 0;
    const res = await fetch(`${base}/ok`, { headers: { "Request-Id": "req_access_1" } });
    expect(res.status).toBe(200);
    await expect.poll(() => accessLines().length).toBe(1);
    const [entry] = accessLines();
    expect(entry!.line).toMatchObject({ status: 200, path: "/ok", request_id: "req_access_1" });
    expect(entry!.answered).toBe(true);
  });

  test("logs the 500 a client got from an error nothing handled, not the status before it", async () => {
    logged.length = 0;
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    await expect.poll(() => accessLines().length).toBe(1);
    expect(accessLines()[0]!.line.status).toBe(500);
  });
});
