export interface DispatcherConfig {
  natsUrl: string;
  coreGrpcAddr: string;
  /** Sent on every core call: every gRPC service of the core requires it. */
  internalToken: string;
  httpPort: number;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): DispatcherConfig {
  const internalToken = source.PAYTAMI_INTERNAL_TOKEN;
  if (!internalToken) throw new Error("PAYTAMI_INTERNAL_TOKEN is required: the core answers only callers that send it (npm start and the test harness set it)");
  return {
    natsUrl: source.NATS_URL || "nats://127.0.0.1:4222",
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    internalToken,
    httpPort: Number(source.DISPATCHER_HTTP_PORT || 4002),
  };
}
