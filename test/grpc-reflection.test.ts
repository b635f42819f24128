// gRPC server reflection on the core (issue 19, item 5): a reflection client (the protocol grpcurl
// and Postman speak, driven here through @grpc/reflection's own proto) lists the services and
// describes them with the operator's credential, and is refused without it or with another
// process's credential.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  type Client,
  type ClientDuplexStream,
  type ServiceClientConstructor,
  type ServiceError,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { afterAll, describe, expect, test } from "vitest";
import { ERROR_CODE_METADATA_KEY, INTERNAL_TOKEN_METADATA_KEY } from "../proto/error-catalog.ts";
import { useStack } from "./support/expect.ts";

const stack = useStack();
const clients: Client[] = [];
afterAll(() => clients.forEach((client) => client.close()));

interface ReflectionResponse {
  list_services_response?: { service: Array<{ name: string }> };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

const REFLECTION_PROTO = join(
  dirname(createRequire(import.meta.url).resolve("@grpc/reflection")),
  "..",
  "proto",
  "grpc",
  "reflection",
  "v1",
  "reflection.proto",
);

function reflectionClient(): Client & { ServerReflectionInfo: (metadata: Metadata) => ClientDuplexStream<object, ReflectionResponse> } {
  const loaded = loadPackageDefinition(loadSync(REFLECTION_PROTO, { keepCase: true })) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: ServiceClientConstructor } } };
  };
  const client = new loaded.grpc.reflection.v1.ServerReflection(stack().coreGrpcAddr, credentials.createInsecure());
  clients.push(client);
  return client as never;
}

/** Sends one reflection request on a stream with `token` (if any) and returns the first answer or the error. */
function ask(token: string | undefined, request: object): Promise<ReflectionResponse | ServiceError> {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set(INTERNAL_TOKEN_METADATA_KEY, token);
  const stream = reflectionClient().ServerReflectionInfo(metadata);
  return new Promise((resolve) => {
    stream.on("data", (response: ReflectionResponse) => {
      resolve(response);
      stream.end();
    });
    stream.on("error", (error: ServiceError) => resolve(error));
    stream.write(request);
  });
}

describe("gRPC server reflection", () => {
  test("with the operator's token it lists every Paytami service and describes one", async () => {
    const listed = await ask(stack().internalToken, { list_services: "*" });
    expect(listed).not.toBeInstanceOf(Error);
    const names = (listed as ReflectionResponse).list_services_response!.service.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "paytami.v1.PaymentService",
        "paytami.v1.CheckoutService",
        "paytami.v1.AdminService",
        "paytami.v1.LinkService",
        "paytami.v1.WebhookService",
        "paytami.v1.DeliveryService",
        "paytami.v1.PayoutService",
        "paytami.v1.RefundService",
        "paytami.v1.LedgerService",
      ]),
    );
    const described = (await ask(stack().internalToken, { file_containing_symbol: "paytami.v1.PaymentService" })) as ReflectionResponse;
    const files = described.file_descriptor_response!.file_descriptor_proto.map((bytes) => bytes.toString("latin1"));
    // The serialized FileDescriptorProto names the service and its methods.
    expect(files.join("")).toContain("PaymentService");
    expect(files.join("")).toContain("CreatePayment");
  });

  test.each([
    ["no token", () => undefined],
    ["a wrong token", () => "not-the-token-but-long-enough-to-be-considered"],
    ["the facade's token", () => stack().facadeToken],
    ["the dispatcher's token", () => stack().dispatcherToken],
  ])("with %s it is refused (UNAUTHENTICATED, unauthorized) and lists nothing", async (_, token) => {
    const answer = await ask(token(), { list_services: "*" });
    expect(answer).toBeInstanceOf(Error);
    expect((answer as ServiceError).code).toBe(16);
    expect((answer as ServiceError).metadata.get(ERROR_CODE_METADATA_KEY)).toEqual(["unauthorized"]);
  });
});
