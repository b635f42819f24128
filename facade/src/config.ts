export interface FacadeConfig {
  port: number;
  publicBaseUrl: string;
  /** The Strict-Transport-Security value sent on every response when PUBLIC_BASE_URL is https; none on http. */
  strictTransportSecurity: string | undefined;
  embedBaseUrl: string;
  coreGrpcAddr: string;
  /** Sent on every core call: every gRPC service of the core requires it. */
  internalToken: string;
  /** Deadline of every core call: the facade answers processor_unavailable rather than hang. */
  coreTimeoutMs: number;
  shutdownGraceMs: number;
  bodyLimitBytes: number;
  /** Trust X-Forwarded-For/-Proto only behind a load balancer that sets them; otherwise a client could forge its IP. */
  trustProxy: boolean;
}

/** One year, subdomains included (the value browsers' preload lists ask for, less `preload`, which is an operator's choice). */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

export function loadConfig(source: NodeJS.ProcessEnv = process.env): FacadeConfig {
  const port = Number(source.PORT || 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a TCP port, got "${source.PORT}"`);
  const internalToken = source.PAYTAMI_INTERNAL_TOKEN;
  if (!internalToken) throw new Error("PAYTAMI_INTERNAL_TOKEN is required: the core answers only callers that send it (npm start and the test harness set it)");
  const publicBaseUrl = (source.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    publicBaseUrl,
    strictTransportSecurity: publicBaseUrl.toLowerCase().startsWith("https://") ? HSTS_VALUE : undefined,
    embedBaseUrl: (source.EMBED_BASE_URL || publicBaseUrl).replace(/\/+$/, ""),
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    coreTimeoutMs: Number(source.CORE_TIMEOUT_MS || 10_000),
    shutdownGraceMs: Number(source.SHUTDOWN_GRACE_MS || 10_000),
    bodyLimitBytes: 64 * 1024,
    trustProxy: source.TRUST_PROXY === "true",
  };
}
