import { credentials, makeClientConstructor, type Client } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";

type HealthClient = Client & {
  check(request: { service: string }, options: { deadline: Date }, callback: (error: Error | null, response?: { status: string }) => void): void;
};

/** Asks the core's standard gRPC health service whether it is serving. */
export function coreHealth(address: string): { check: () => Promise<boolean>; close: () => void } {
  const Ctor = makeClientConstructor(healthService, "grpc.health.v1.Health");
  const client = new Ctor(address, credentials.createInsecure()) as unknown as HealthClient;
  return {
    check: () =>
      new Promise((resolve) => {
        client.check({ service: "" }, { deadline: new Date(Date.now() + 2_000) }, (error, response) => {
          resolve(!error && response?.status === "SERVING");
        });
      }),
    close: () => client.close(),
  };
}
