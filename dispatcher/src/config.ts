export interface DispatcherConfig {
  natsUrl: string;
  coreGrpcAddr: string;
  httpPort: number;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): DispatcherConfig {
  return {
    natsUrl: source.NATS_URL || "nats://127.0.0.1:4222",
    coreGrpcAddr: source.CORE_GRPC_ADDR || "127.0.0.1:50051",
    httpPort: Number(source.DISPATCHER_HTTP_PORT || 4002),
  };
}
