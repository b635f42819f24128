// The route table and the document cannot diverge: the facade's real router (its whole app, as
// main.ts builds it) against the OpenAPI document it serves, both ways.
import type Router from "@koa/router";
import { afterAll, describe, expect, it } from "vitest";
import { CoreClient } from "../../../proto/core-client.ts";
import { createLogger } from "../../../proto/runtime/logger.ts";
import { createApp, PUBLIC_ID_ROUTES } from "../app.ts";
import { loadConfig } from "../config.ts";
import { buildDocument, openApiPath } from "./document.ts";
import type { ApiOperation } from "./operation.ts";
import { OPERATIONS } from "./operations/index.ts";

const config = loadConfig({ PAYTAMI_FACADE_TOKEN: "facade-token-0123456789abcdefghijk", CORE_GRPC_ADDR: "127.0.0.1:1" });
const core = new CoreClient({ address: config.coreGrpcAddr, internalToken: config.internalToken, timeoutMs: 1000 });
afterAll(() => core.close());
const app = createApp({ config, core, log: createLogger("facade-test"), healthy: async () => true });

/** Every method + path the router answers (HEAD rides along with GET). */
function routerTable(): { method: string; path: string; name: string | undefined }[] {
  const dispatch = app.middleware.find((mw) => "router" in mw) as unknown as { router: Router };
  return dispatch.router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== "HEAD").map((method) => ({ method: method.toLowerCase(), path: String(layer.path), name: layer.name ?? undefined })),
  );
}

const documentRoutes = (document: ReturnType<typeof buildDocument>) =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    (["get", "post", "put", "patch", "delete"] as const).filter((m) => item[m] !== undefined).map((m) => `${m.toUpperCase()} ${path}`),
  );

describe("router ↔ document", () => {
  const routed = routerTable();
  const document = buildDocument(config.publicBaseUrl);

  it("every /v1 route of the router is in the document, and every operation of the document is routed", () => {
    const fromRouter = routed.filter((r) => r.path.startsWith("/v1/")).map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`);
    expect(new Set(fromRouter).size).toBe(fromRouter.length);
    expect([...fromRouter].sort()).toEqual(documentRoutes(document).sort());
  });

  it("each /v1 route is registered from its declaration (the route's name is its operationId)", () => {
    const byRoute = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op.operationId]));
    for (const r of routed.filter((r) => r.path.startsWith("/v1/"))) expect(r.name, `${r.method} ${r.path}`).toBe(byRoute.get(`${r.method} ${r.path}`));
    expect(new Set(OPERATIONS.map((op) => op.operationId)).size).toBe(OPERATIONS.length);
  });

  it("the comparison fails when a route is missing from the document, or the document names one the router lacks", () => {
    const withoutOne = buildDocument(config.publicBaseUrl, OPERATIONS.slice(1));
    const fromRouter = routed.filter((r) => r.path.startsWith("/v1/")).map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`);
    expect(fromRouter.sort()).not.toEqual(documentRoutes(withoutOne).sort());
    const extra: ApiOperation = { ...OPERATIONS[0]!, operationId: "ghost", path: "/v1/ghosts" };
    expect(fromRouter.sort()).not.toEqual(documentRoutes(buildDocument(config.publicBaseUrl, [...OPERATIONS, extra])).sort());
  });

  it("every path parameter of a route is declared by its operation", () => {
    for (const op of OPERATIONS) {
      const names = [...op.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
      expect(Object.keys(op.pathParams?.shape ?? {}), op.operationId).toEqual(names);
    }
  });

  it("every route under PUBLIC_ROUTE_LIMIT declares its 429 rate_limited", () => {
    const limited = OPERATIONS.filter((op) => PUBLIC_ID_ROUTES.some((prefix) => op.path === prefix || op.path.startsWith(`${prefix}/`)));
    expect(limited.map((op) => op.operationId).sort()).toEqual(["getCheckoutSession", "getPaymentLink", "payPaymentLink", "redirectToCheckout"]);
    for (const op of limited) expect(op.errors, op.operationId).toContain("rate_limited");
  });
});
