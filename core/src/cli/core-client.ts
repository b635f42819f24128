// gRPC access to the core for the CLI and the dev stack's seeding: promise-returning unary calls and
// one mapping from gRPC failures to catalog codes.
import { credentials, Metadata, status, type CallOptions, type ClientUnaryCall, type ServiceError } from "@grpc/grpc-js";
import { ERROR_CODE_METADATA_KEY, INTERNAL_TOKEN_METADATA_KEY, isErrorCode, type ErrorCode } from "../../../proto/error-catalog.ts";
import { AdminServiceClient } from "../../../proto/gen/paytami/v1/admin.ts";
import { PaymentServiceClient } from "../../../proto/gen/paytami/v1/payment.ts";

export class CoreError extends Error {
  override name = "CoreError";
  code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

function toCoreError(error: ServiceError, address: string): CoreError {
  const trailer = error.metadata?.get(ERROR_CODE_METADATA_KEY)[0];
  const code = typeof trailer === "string" ? trailer : trailer?.toString();
  // grpc-js appends an empty "Resolution note:" to connection failures; it only adds noise.
  const message = (error.details || error.message).replace(/\s*Resolution note:\s*$/, "");
  if (isErrorCode(code)) return new CoreError(code, message);
  // No catalog code means the call never reached a core that answered.
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED) {
    return new CoreError("processor_unavailable", `core at ${address} is unreachable: ${message}`);
  }
  return new CoreError("internal_error", message);
}

export class CoreConnection {
  readonly address: string;
  readonly admin: AdminServiceClient;
  readonly payments: PaymentServiceClient;
  private readonly internalToken: string | undefined;

  constructor(address: string, internalToken: string | undefined) {
    this.address = address;
    this.internalToken = internalToken;
    this.admin = new AdminServiceClient(address, credentials.createInsecure());
    this.payments = new PaymentServiceClient(address, credentials.createInsecure());
  }

  internalMetadata(): Metadata {
    const metadata = new Metadata();
    if (this.internalToken) metadata.set(INTERNAL_TOKEN_METADATA_KEY, this.internalToken);
    return metadata;
  }

  bearerMetadata(apiKey: string): Metadata {
    const metadata = new Metadata();
    metadata.set("authorization", `Bearer ${apiKey}`);
    return metadata;
  }

  // `method` must be bound to its client, e.g. `conn.admin.createMerchant.bind(conn.admin)`.
  call<Req, Res>(method: UnaryMethod<Req, Res>, request: Req, metadata: Metadata, timeoutMs = 15_000): Promise<Res> {
    return new Promise((resolve, reject) => {
      method(request, metadata, { deadline: new Date(Date.now() + timeoutMs) }, (error, response) => {
        if (error) reject(toCoreError(error, this.address));
        else resolve(response);
      });
    });
  }

  close(): void {
    this.admin.close();
    this.payments.close();
  }
}
