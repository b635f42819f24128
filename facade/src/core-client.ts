import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { ERROR_CODE_METADATA_KEY, isErrorCode, REQUEST_ID_METADATA_KEY } from "../../proto/error-catalog.ts";
import { CheckoutServiceClient } from "../../proto/gen/paytami/v1/checkout.ts";
import { PaymentServiceClient, type CreatePaymentRequest, type ListPaymentsRequest } from "../../proto/gen/paytami/v1/payment.ts";
import { PublicError } from "./public-error.ts";

export interface CallMeta {
  requestId: string;
  authorization?: string | undefined;
}

type Unary<Req, Res> = (request: Req, metadata: Metadata, options: { deadline: Date }, callback: (error: ServiceError | null, response: Res) => void) => unknown;

/** gRPC metadata values must be printable ASCII; anything else cannot be a valid key anyway. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** Turns a core failure into the catalog error the client sees. */
export function toPublicError(error: ServiceError): PublicError | Error {
  const code = error.metadata?.get(ERROR_CODE_METADATA_KEY)[0];
  if (isErrorCode(code)) return new PublicError(code, error.details || "Request failed.");
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED) {
    return new PublicError("processor_unavailable", "The service is temporarily unavailable; retry later.");
  }
  return error;
}

export class CoreClient {
  readonly payments: PaymentServiceClient;
  readonly checkout: CheckoutServiceClient;
  readonly #timeoutMs: number;

  constructor(address: string, timeoutMs: number) {
    const options = { "grpc.keepalive_time_ms": 30_000, "grpc.enable_retries": 0 };
    this.payments = new PaymentServiceClient(address, credentials.createInsecure(), options);
    // Share the payments client's channel so one TCP connection carries everything.
    this.checkout = new CheckoutServiceClient(address, credentials.createInsecure(), { ...options, channelOverride: this.payments.getChannel() });
    this.#timeoutMs = timeoutMs;
  }

  createPayment = (request: CreatePaymentRequest, meta: CallMeta) => this.#call(this.payments.createPayment, this.payments, request, meta);
  getPayment = (id: string, meta: CallMeta) => this.#call(this.payments.getPayment, this.payments, { id }, meta);
  listPayments = (request: ListPaymentsRequest, meta: CallMeta) => this.#call(this.payments.listPayments, this.payments, request, meta);
  resolveCheckout = (paymentId: string, meta: CallMeta) => this.#call(this.checkout.resolveCheckout, this.checkout, { paymentId }, meta);
  getCheckoutSession = (paymentId: string, meta: CallMeta) => this.#call(this.checkout.getCheckoutSession, this.checkout, { paymentId }, meta);
  getHostedPayment = (paymentId: string, meta: CallMeta) => this.#call(this.checkout.getHostedPayment, this.checkout, { paymentId }, meta);
  verifyEmbedToken = (paymentId: string, token: string, meta: CallMeta) => this.#call(this.checkout.verifyEmbedToken, this.checkout, { paymentId, token }, meta);

  #call<Req, Res>(method: Unary<Req, Res>, client: object, request: Req, meta: CallMeta): Promise<Res> {
    const metadata = new Metadata();
    metadata.set(REQUEST_ID_METADATA_KEY, meta.requestId);
    if (meta.authorization && PRINTABLE.test(meta.authorization)) metadata.set("authorization", meta.authorization);
    return new Promise((resolve, reject) => {
      method.call(client, request, metadata, { deadline: new Date(Date.now() + this.#timeoutMs) }, (error, response) => {
        if (error) reject(toPublicError(error));
        else resolve(response);
      });
    });
  }

  close(): void {
    this.payments.close();
  }
}
