import { credentials, Metadata } from "@grpc/grpc-js";
import { HealthCheckResponse_ServingStatus, HealthClient } from "../../proto/gen/grpc/health/v1/health.ts";

/** Asks the core's standard gRPC health service whether it is serving. */
export function coreHealth(address: string): { check: () => Promise<boolean>; close: () => void } {
  const client = new HealthClient(address, credentials.createInsecure());
  return {
    check: () =>
      new Promise((resolve) => {
        client.check({ service: "" }, new Metadata(), { deadline: new Date(Date.now() + 2_000) }, (error, response) => {
          resolve(!error && response?.status === HealthCheckResponse_ServingStatus.SERVING);
        });
      }),
    close: () => client.close(),
  };
}
