// HSTS over real HTTP through the facade's whole app: on every response (pages, JSON, 404s, errors)
// when PUBLIC_BASE_URL is https; never when it is http. The core is not running: what needs it fails,
// which shows error responses carry the header too.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { CoreClient } from "../../../proto/core-client.ts";
import { requestListener } from "../../../proto/request-listener.ts";
import { createApp } from "../app.ts";
import { loadConfig } from "../config.ts";

const servers: Server[] = [];
const clients: CoreClient[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  for (const client of clients) client.close();
});

async function facade(publicBaseUrl: string): Promise<string> {
  const config = loadConfig({
    PUBLIC_BASE_URL: publicBaseUrl,
    PAYTAMI_FACADE_TOKEN: "facade-token-0123456789abcdefghijk",
    CORE_GRPC_ADDR: "127.0.0.1:1",
    CORE_TIMEOUT_MS: "2000",
  });
  const core = new CoreClient({ address: config.coreGrpcAddr, internalToken: config.internalToken, timeoutMs: config.coreTimeoutMs });
  clients.push(core);
  const log = createLogger("facade-test");
  const app = createApp({ config, core, log, healthy: async () => true });
  const server = createServer(requestListener(log, app.callback())).listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const PATHS = ["/healthz", "/no/such/route", "/v1/payments", "/l/plink_0123456789abcdef01234567"];

describe("Strict-Transport-Security", () => {
  test("sent on every response when PUBLIC_BASE_URL is https", async () => {
    const base = await facade("https://pay.example.com");
    const statuses: number[] = [];
    for (const path of PATHS) {
      const res = await fetch(base + path);
      statuses.push(res.status);
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
    }
    // A success, a 404, an API error and a page: not only the happy path.
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBe(404);
    expect(statuses.slice(2).every((s) => s >= 400)).toBe(true);
  });

  test("never sent when PUBLIC_BASE_URL is http", async () => {
    const base = await facade("http://localhost:4000");
    for (const path of PATHS) expect((await fetch(base + path)).headers.get("strict-transport-security"), path).toBeNull();
  });
});
