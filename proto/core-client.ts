// The one gRPC client of the core, for every process that calls it (facade, CLI, dev stack, test
// harness): promise-returning unary calls on one shared channel, a deadline on each call, the
// request id, the process's credential and optional `authorization` metadata, TLS when configured,
// and one mapping from a gRPC failure to a catalog code.
import { Client, Metadata, status, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import { CoreError } from "./core-error.ts";
import { channelCredentials, type CoreTls } from "./core-tls.ts";
import { ERROR_CODE_METADATA_KEY, INTERNAL_TOKEN_METADATA_KEY, isErrorCode, REQUEST_ID_METADATA_KEY, RETRY_AFTER_METADATA_KEY } from "./error-catalog.ts";
import { HealthService } from "./gen/grpc/health/v1/health.ts";
import { AdminServiceService } from "./gen/paytami/v1/admin.ts";
import { CheckoutServiceService } from "./gen/paytami/v1/checkout.ts";
import { DeliveryServiceService } from "./gen/paytami/v1/delivery.ts";
import { LedgerServiceService } from "./gen/paytami/v1/ledger.ts";
import { LinkServiceService } from "./gen/paytami/v1/link.ts";
import { PaymentServiceService } from "./gen/paytami/v1/payment.ts";
import { PayoutServiceService } from "./gen/paytami/v1/payout.ts";
import { RefundServiceService } from "./gen/paytami/v1/refund.ts";
import { WebhookServiceService } from "./gen/paytami/v1/webhook.ts";
import { currentTraceparent, failed, SpanKind, startSpan, traceparentOf } from "./runtime/spans.ts";

export function toCoreError(error: ServiceError, address: string): CoreError {
  const code = error.metadata?.get(ERROR_CODE_METADATA_KEY)[0];
  // grpc-js appends an empty "Resolution note:" to connection failures; it only adds noise.
  const message = (error.details || error.message).replace(/\s*Resolution note:\s*$/, "");
  if (isErrorCode(code)) {
    const retryAfter = Number(error.metadata?.get(RETRY_AFTER_METADATA_KEY)[0]);
    return new CoreError(code, message, true, Number.isInteger(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
  }
  // No catalog code: no core answered in time.
  if (error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED) {
    return new CoreError("processor_unavailable", `core at ${address} is unreachable: ${message}`, false);
  }
  return new CoreError("internal_error", message, false);
}

export interface CallMeta {
  /** Sent as `x-request-id`; the core makes one when absent. */
  requestId?: string | undefined;
  /** The client's `Authorization` header, passed through as is (e.g. "Bearer sk_test_…"). */
  authorization?: string | undefined;
  /** This call's deadline, instead of the client's. */
  timeoutMs?: number | undefined;
}

interface UnaryDefinition<Req, Res> {
  path: string;
  requestStream: false;
  responseStream: false;
  requestSerialize: (value: Req) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
}

/** A generated service definition's unary methods as promise-returning functions. */
export type UnaryCalls<S> = {
  [K in keyof S as S[K] extends UnaryDefinition<never, unknown> ? K : never]: S[K] extends UnaryDefinition<infer Req, infer Res>
    ? (request: Req, meta?: CallMeta) => Promise<Res>
    : never;
};

export interface CoreClientOptions {
  address: string;
  /**
   * This process's credential, sent as `x-paytami-internal-token` on every call: every Paytami
   * service requires one (the operator's, the facade's or the dispatcher's; core/src/grpc/access.ts).
   */
  internalToken: string | undefined;
  /** CORE_TLS_* of this process (proto/core-tls.ts); absent or null: plaintext. */
  tls?: CoreTls | null | undefined;
  /** Default deadline of each call. */
  timeoutMs: number;
  /**
   * Tracing on, each call gets a client span of its own (the default). false: the caller's active
   * span stands for its calls and goes as their `traceparent`: the facade's request span, whose
   * route makes its call to the core and does little else, so a client span would cover the same time.
   */
  spanPerCall?: boolean;
}

/** The channel's tuning (see the constructor). */
export const CHANNEL_OPTIONS = {
  "grpc.enable_channelz": 0,
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  "grpc-node.flow_control_window": 1 << 20,
  "grpc.enable_retries": 0,
} as const;

/** gRPC metadata values must be printable ASCII; anything else cannot be a valid key anyway. */
const PRINTABLE = /^[\x20-\x7e]*$/;

export class CoreClient {
  readonly payments: UnaryCalls<typeof PaymentServiceService>;
  readonly checkout: UnaryCalls<typeof CheckoutServiceService>;
  readonly admin: UnaryCalls<typeof AdminServiceService>;
  readonly webhooks: UnaryCalls<typeof WebhookServiceService>;
  readonly deliveries: UnaryCalls<typeof DeliveryServiceService>;
  readonly links: UnaryCalls<typeof LinkServiceService>;
  readonly payouts: UnaryCalls<typeof PayoutServiceService>;
  readonly refunds: UnaryCalls<typeof RefundServiceService>;
  readonly ledger: UnaryCalls<typeof LedgerServiceService>;
  /** The standard grpc.health.v1 service (open: needs no token). */
  readonly health: UnaryCalls<typeof HealthService>;
  readonly #channel: Client;
  readonly #options: CoreClientOptions;

  constructor(options: CoreClientOptions) {
    this.#options = options;
    // One channel (one long-lived HTTP/2 connection, streams multiplexed on it) carries every service;
    // connects on the first call. Channelz off: it books every call's start and end in per-channel and
    // per-subchannel counters and traces nobody reads (a few % of the facade's hot path in the profile).
    // A connection-level flow-control window of 1 MiB spares the WINDOW_UPDATE round trips of small
    // answers arriving 30 at a time; keepalive pings find a dead core within 40 s rather than a TCP timeout.
    const serverName = options.tls?.serverName;
    this.#channel = new Client(options.address, channelCredentials(options.tls ?? null), {
      ...CHANNEL_OPTIONS,
      ...(serverName ? { "grpc.ssl_target_name_override": serverName, "grpc.default_authority": serverName } : {}),
    });
    this.payments = this.#unaryCalls(PaymentServiceService);
    this.checkout = this.#unaryCalls(CheckoutServiceService);
    this.admin = this.#unaryCalls(AdminServiceService);
    this.webhooks = this.#unaryCalls(WebhookServiceService);
    this.deliveries = this.#unaryCalls(DeliveryServiceService);
    this.links = this.#unaryCalls(LinkServiceService);
    this.payouts = this.#unaryCalls(PayoutServiceService);
    this.refunds = this.#unaryCalls(RefundServiceService);
    this.ledger = this.#unaryCalls(LedgerServiceService);
    this.health = this.#unaryCalls(HealthService);
  }

  #unaryCalls<S extends object>(service: S): UnaryCalls<S> {
    const calls: Record<string, unknown> = {};
    for (const [name, method] of Object.entries(service) as Array<[string, UnaryDefinition<unknown, unknown> | { responseStream: true }]>) {
      if (method.responseStream) continue;
      calls[name] = (request: unknown, meta?: CallMeta) => this.#call(method, request, meta ?? {});
    }
    return calls as UnaryCalls<S>;
  }

  #call<Req, Res>(method: UnaryDefinition<Req, Res>, request: Req, meta: CallMeta): Promise<Res> {
    const metadata = new Metadata();
    if (meta.requestId) metadata.set(REQUEST_ID_METADATA_KEY, meta.requestId);
    if (this.#options.internalToken) metadata.set(INTERNAL_TOKEN_METADATA_KEY, this.#options.internalToken);
    if (meta.authorization && PRINTABLE.test(meta.authorization)) metadata.set("authorization", meta.authorization);
    const deadline = new Date(Date.now() + (meta.timeoutMs ?? this.#options.timeoutMs));
    // The client span of the call (tracing on): the core's server span continues it from `traceparent`.
    // rpc.method is left out: it is the span's name already (fewer attributes to clean and export per call).
    const span =
      this.#options.spanPerCall === false ? undefined : startSpan(method.path.slice(1), { kind: SpanKind.CLIENT, attributes: { "rpc.system": "grpc" } });
    const traceparent = span ? traceparentOf(span) : currentTraceparent();
    if (traceparent) metadata.set("traceparent", traceparent);
    return unaryCall(this.#channel, method, request, metadata, deadline).then(
      (response) => {
        span?.end();
        return response;
      },
      (error: ServiceError) => {
        const coreError = toCoreError(error, this.#options.address);
        failed(span, coreError);
        span?.end();
        throw coreError;
      },
    );
  }

  close(): void {
    this.#channel.close();
  }
}

/**
 * One unary call, settled by its response message: the core's answer is complete once the message is
 * in, and grpc-js's server sends the trailers (status OK) in a later turn of its loop, after the
 * message's write has completed. Waiting for them, as `Client#makeUnaryRequest` does, cost every call
 * a second write by the core and a second wake and read by the caller (strace of one facade request
 * at c=1). A call with no message fails with its status (the core's catalog errors are trailers-only);
 * a status arriving after the message changes nothing, since the core answers a message only on success.
 * Rejects with the call's status as a ServiceError, as grpc-js's own calls do.
 */
function unaryCall<Req, Res>(client: Client, method: UnaryDefinition<Req, Res>, request: Req, metadata: Metadata, deadline: Date): Promise<Res> {
  return new Promise((resolve, reject) => {
    const call = client.getChannel().createCall(method.path, deadline, undefined, null, undefined);
    let settled = false;
    call.start(metadata, {
      onReceiveMetadata: () => {},
      onReceiveMessage: (message: Buffer) => {
        if (settled) return;
        let response: Res;
        try {
          response = method.responseDeserialize(message);
        } catch (error) {
          call.cancelWithStatus(status.INTERNAL, `Response message parsing error: ${String(error)}`);
          return;
        }
        settled = true;
        resolve(response);
      },
      onReceiveStatus: (outcome: StatusObject) => {
        if (settled) return;
        settled = true;
        const ended = outcome.code === status.OK ? { code: status.UNIMPLEMENTED, details: "No message received", metadata: outcome.metadata } : outcome;
        reject(Object.assign(new Error(`${ended.code} ${status[ended.code]}: ${ended.details}`), ended) satisfies ServiceError);
      },
    });
    call.startRead();
    let serialized: Buffer;
    try {
      serialized = method.requestSerialize(request);
    } catch (error) {
      // As grpc-js's own unary calls: the call ends with INTERNAL (internal_error).
      call.cancelWithStatus(status.INTERNAL, `Request message serialization failure: ${String(error)}`);
      return;
    }
    call.sendMessageWithContext({}, serialized);
    call.halfClose();
  });
}
