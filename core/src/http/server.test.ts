// The core's HTTP side over real HTTP: a request whose handling fails is answered 500
// internal_error, and the server keeps answering. Left to itself the handler's rejection would go
// unhandled, which leaves the request hanging and ends a Node process.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { startHttpServer } from "./server.ts";

let database: MigratedDatabase | undefined;
let server: Server | undefined;
let base = "";

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  const deps = { ...database.deps, config: { ...database.deps.config, httpPort: 0, grpcAddr: "127.0.0.1:0" } };
  // A probe that breaks its contract (throws instead of answering a promise) fails the whole /healthz handler.
  const broken = {
    name: "broken",
    check: (): Promise<boolean> => {
      throw new Error("probe threw");
    },
  };
  server = await startHttpServer(deps, [broken]);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await database?.close();
});

test("a request whose handler fails is answered 500 internal_error, without detail, and the server keeps answering", async () => {
  const failed = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(failed.status).toBe(500);
  expect(await failed.json()).toEqual({ error: { code: "internal_error", message: "Internal error." } });
  const next = await fetch(`${base}/no/such/route`, { signal: AbortSignal.timeout(5_000) });
  expect(next.status).toBe(404);
});
