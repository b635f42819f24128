import type { CoreClient } from "../../proto/core-client.ts";
import { HealthCheckResponse_ServingStatus } from "../../proto/gen/grpc/health/v1/health.ts";

/** Asks the core's standard gRPC health service whether it is serving (on the facade's one channel to the core). */
export function coreHealthy(core: CoreClient): () => Promise<boolean> {
  return () =>
    core.health.check({ service: "" }, { timeoutMs: 2_000 }).then(
      (response) => response.status === HealthCheckResponse_ServingStatus.SERVING,
      () => false,
    );
}
