import { createServer, type Server } from "node:http";
import { sql } from "kysely";
import { requestListener } from "../../../proto/request-listener.ts";
import { db } from "../db/orm.ts";
import { poolWatch } from "../db/pool-watch.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { operatorCheck } from "../domain/service-credentials.ts";
import { registry } from "../metrics.ts";
import { bearerToken } from "./bearer-token.ts";
import { dashboardSessionCaller } from "./dashboard-caller.ts";
import { PAYMENTS_EXPORT_PATH, paymentsExportHandler } from "./payments-export.ts";
import { TRPC_PATH, trpcHandler } from "../trpc/router.ts";

export interface HealthProbe {
  name: string;
  check: () => Promise<boolean>;
}

/** The core's HTTP side: /healthz and /metrics, the tRPC API at /trpc and the dashboard's CSV export. */
export function startHttpServer(deps: CoreDeps, extraProbes: HealthProbe[]): Promise<Server> {
  const probes: HealthProbe[] = [
    {
      // Reachable and writable: a core connected to a standby (or to nothing while one is being
      // promoted) cannot take a payment, so the load balancer should send none its way.
      name: "database",
      check: async () =>
        (
          await db(deps.orm.em.fork())
            .selectNoFrom(sql<boolean>`not pg_is_in_recovery()`.as("writable"))
            .executeTakeFirst()
        )?.writable === true,
    },
    {
      // Requests gave up waiting for a pooled connection within DB_CONNECT_TIMEOUT (each answered
      // 503): a load balancer should send this core less until its queue drains.
      name: "pool",
      check: async () => !poolWatch.stats().saturated,
    },
    ...extraProbes,
  ];
  const trpc = trpcHandler(deps);
  const paymentsExport = paymentsExportHandler(deps, dashboardSessionCaller(deps));
  const resolveOperator = operatorCheck(deps.config.serviceTokens.operator);
  const server = createServer(
    requestListener(deps.log, async (req, res) => {
      if (req.url?.startsWith(`${TRPC_PATH}/`)) return trpc(req, res);
      if (req.method === "GET" && (req.url === PAYMENTS_EXPORT_PATH || req.url?.startsWith(`${PAYMENTS_EXPORT_PATH}?`))) return paymentsExport(req, res);
      if (req.method === "GET" && req.url === "/healthz") {
        const results = await Promise.all(probes.map(async (p) => [p.name, await withTimeout(p.check(), 2_000).catch(() => false)] as const));
        const ok = results.every(([, up]) => up);
        res.writeHead(ok ? 200 : 503, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify(ok ? { status: "ok" } : { status: "unavailable", checks: Object.fromEntries(results), pool: poolWatch.stats() }));
        return;
      }
      if (req.method === "GET" && req.url === "/metrics") {
        // Metrics name routes, error rates and volumes: for operators' scrapers, not the public.
        try {
          resolveOperator(bearerToken(req.headers.authorization));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
          res.end(JSON.stringify({ error: { code: error.code, message: error.message } }));
          return;
        }
        res.writeHead(200, { "content-type": registry.contentType });
        res.end(await registry.metrics());
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "validation_error", message: "Unknown route." } }));
    }),
  );
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    // Same interface as the gRPC listener: loopback in development, all interfaces when CORE_GRPC_ADDR says 0.0.0.0.
    server.listen(deps.config.httpPort, grpcHost(deps.config.grpcAddr), () => resolve(server));
  });
}

function grpcHost(address: string): string {
  const host = address.slice(0, address.lastIndexOf(":")).replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "" ? "127.0.0.1" : host;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error("timeout")), ms).unref())]);
}
