// gRPC access to the core for the CLI and the dev stack's seeding: promise-returning unary calls and
// one mapping from gRPC failures to catalog codes.
import { credentials, Metadata, status, type CallOptions, type ClientUnaryCall, type ServiceError } from "@grpc/grpc-js";
import { ERROR_CODE_METADATA_KEY, INTERNAL_TOKEN_METADATA_KEY, isErrorCode, type ErrorCode } from "../../../proto/error-catalog.ts";
import { AdminServiceClient } from "../../../proto/gen/paytami/v1/admin.ts";
import { PaymentServiceClient, type AuthenticateResponse } from "../../../proto/gen/paytami/v1/payment.ts";

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
  const code = error.metadata?.get(ERROR_CODE_METADATA_KEY)[0];
  // grpc-js appends an empty "Resolution note:" to connection failures; it only adds noise.
  const message = (error.details || error.message).replace(/\s*Resolution note:\s*$/, "");
  if (isErrorCode(code)) return new CoreError(code, message);
  // No catalog code means the call never reached a core that answered.
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED) {
    return new CoreError("processor_unavailable", `core at ${address} is unreachable: ${message}`);
  }
  return new CoreError("internal_error", message);
}

const TIMEOUT_MS = 15_000;

export class CoreConnection {
  readonly admin: AdminServiceClient;
  readonly #payments: PaymentServiceClient;
  readonly #address: string;
  readonly #internalToken: string | undefined;

  constructor(address: string, internalToken: string | undefined) {
    this.#address = address;
    this.#internalToken = internalToken;
    this.admin = new AdminServiceClient(address, credentials.createInsecure());
    this.#payments = new PaymentServiceClient(address, credentials.createInsecure());
  }

  /** An AdminService call with the internal token: `core.internal(core.admin.createMerchant, {…})`. */
  internal<Req, Res>(method: UnaryMethod<Req, Res>, request: Req): Promise<Res> {
    const metadata = new Metadata();
    if (this.#internalToken) metadata.set(INTERNAL_TOKEN_METADATA_KEY, this.#internalToken);
    return this.#call(this.admin, method, request, metadata);
  }

  /** Which merchant and mode `apiKey` belongs to; fails with `unauthorized` when it is not valid. */
  authenticate(apiKey: string): Promise<AuthenticateResponse> {
    const metadata = new Metadata();
    metadata.set("authorization", `Bearer ${apiKey}`);
    return this.#call(this.#payments, this.#payments.authenticate, {}, metadata);
  }

  #call<Req, Res>(client: object, method: UnaryMethod<Req, Res>, request: Req, metadata: Metadata): Promise<Res> {
    return new Promise((resolve, reject) => {
      method.call(client, request, metadata, { deadline: new Date(Date.now() + TIMEOUT_MS) }, (error, response) => {
        if (error) reject(toCoreError(error, this.#address));
        else resolve(response);
      });
    });
  }

  close(): void {
    this.admin.close();
    this.#payments.close();
  }
}
