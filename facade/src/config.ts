import { serviceTokenEnv } from "../../core/src/config.ts";
import { coreTlsEnv, type CoreTls } from "../../proto/core-tls.ts";

export interface FacadeConfig {
  port: number;
  publicBaseUrl: string;
  embedBaseUrl: string;
  coreGrpcAddr: string;
  /** PAYTAMI_FACADE_TOKEN, sent on every core call: the facade's own credential, good only for what its routes call (core/src/grpc/access.ts). */
  internalToken: string;
  /** CORE_TLS_*: the facade's client certificate and the CA of the core's; null: plaintext. */
  coreTls: CoreTls | null;
  /** Deadline of every core call: the facade answers processor_unavailable rather than hang. */
  coreTimeoutMs: number;
  shutdownGraceMs: number;
  bodyLimitBytes: number;
  /** Trust X-Forwarded-For/-Proto only behind a load balancer that sets them; otherwise a client could forge its IP. */
  trustProxy: boolean;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): FacadeConfig {
  const port = Number(source.PORT || 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a TCP port, got "${source.PORT}"`);
  const internalToken = serviceTokenEnv(source, "PAYTAMI_FACADE_TOKEN");
  if (!internalToken) {
    throw new Error("PAYTAMI_FACADE_TOKEN is required: the facade's own credential, which the core must know too (the operator's PAYTAMI_INTERNAL_TOKEN is not the facade's; npm start and the test harness set both)");
  }
  const publicBaseUrl = (source.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    publicBaseUrl,
    embedBaseUrl: (source.EMBED_BASE_URL || publicBaseUrl).replace(/\/+$/, ""),
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    coreTls: coreTlsEnv(source, "client"),
    coreTimeoutMs: Number(source.CORE_TIMEOUT_MS || 10_000),
    shutdownGraceMs: Number(source.SHUTDOWN_GRACE_MS || 10_000),
    bodyLimitBytes: 64 * 1024,
    trustProxy: source.TRUST_PROXY === "true",
  };
}
