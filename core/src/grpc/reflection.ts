// gRPC server reflection (grpc.reflection.v1 and v1alpha) so grpcurl, Postman and @grpc/reflection's
// own client can list and call the core's services without the .proto files at hand. It describes
// the whole internal contract, so it sits behind the operator's credential like the operator's
// methods (access.ts): the facade's and the dispatcher's credentials do not open it either.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { Metadata, status, type Server, type ServerDuplexStream, type ServiceDefinition, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { ERROR_CODE_METADATA_KEY, INTERNAL_TOKEN_METADATA_KEY } from "../../../proto/error-catalog.ts";
import type { ServiceCheck } from "../domain/service-credentials.ts";
import { DomainError } from "../domain/errors.ts";

const PROTO_FILES = ["admin", "checkout", "delivery", "ledger", "link", "payment", "payout", "refund", "webhook"].map((name) => `paytami/v1/${name}.proto`);

/** The repository's proto/ folder, found upwards from here (this file runs from core/src and from dist/core/src). */
function protoRoot(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, "proto");
    if (existsSync(join(candidate, PROTO_FILES[0]!))) return candidate;
    if (dirname(dir) === dir) throw new Error("gRPC reflection: proto/paytami/v1 not found above " + import.meta.dirname);
  }
}

/** Refuses a reflection stream unless it carries the operator's credential; otherwise lets `handler` answer it. */
function operatorOnly(check: ServiceCheck, handler: (call: ServerDuplexStream<unknown, unknown>) => void) {
  return (call: ServerDuplexStream<unknown, unknown>) => {
    const presented = call.metadata.get(INTERNAL_TOKEN_METADATA_KEY)[0];
    let refusal: string | undefined;
    try {
      const caller = check(typeof presented === "string" ? presented : undefined);
      if (caller.name !== "operator") refusal = `The ${caller.name}'s credential may not use server reflection.`;
    } catch (error) {
      refusal = error instanceof DomainError ? error.message : "A valid internal token is required.";
    }
    if (refusal === undefined) return handler(call);
    const metadata = new Metadata();
    metadata.set(ERROR_CODE_METADATA_KEY, "unauthorized");
    call.emit("error", { code: status.UNAUTHENTICATED, details: refusal, metadata });
  };
}

/** Adds the reflection services to `server`, each of their streams checked by `check` first. */
export function addReflection(server: Server, check: ServiceCheck): void {
  const definition = loadSync(PROTO_FILES, { includeDirs: [protoRoot()], keepCase: true });
  new ReflectionService(definition).addToServer({
    addService: (service: ServiceDefinition, implementation: UntypedServiceImplementation) => {
      const guarded = Object.fromEntries(
        Object.entries(implementation).map(([name, handler]) => [name, operatorOnly(check, handler as (call: ServerDuplexStream<unknown, unknown>) => void)]),
      );
      server.addService(service, guarded);
    },
  });
}
