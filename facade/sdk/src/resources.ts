import type { Query, RequestOptions, Transport } from "./http.ts";
import { PageRequest, type Page, type PageParams } from "./list.ts";
import type {
  Balance,
  Chargeback,
  CheckoutSession,
  CreateLinkParams,
  CreatePaymentParams,
  CreateRefundParams,
  Event,
  ListChargebacksParams,
  ListEventsParams,
  ListLinksParams,
  ListPaymentsParams,
  ListPayoutsParams,
  ListRefundsParams,
  Payment,
  PaymentLink,
  PayLinkParams,
  Payout,
  PublicPaymentLink,
  Refund,
  CreateWebhookEndpointParams,
  DeletedWebhookEndpoint,
  ListWebhookEndpointsParams,
  SendTestEventParams,
  TestEventSent,
  UpdateWebhookEndpointParams,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "./types.ts";

// One method per /v1 operation, written by hand over the generated types: the path, the verb, and
// whether it creates (an Idempotency-Key, one per call, kept across its retries).

const segment = (id: string) => encodeURIComponent(id);

function pages<T extends { id: string }>(transport: Transport, path: string, params: PageParams & Query): PageRequest<T> {
  const { starting_after, ...rest } = params;
  return new PageRequest<T>((after) => transport.get<Page<T>>(path, { ...rest, starting_after: after }), starting_after);
}

/** A group of methods over one Transport. */
abstract class Resource {
  protected readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }
}

export class Payments extends Resource {
  /** POST /v1/payments: 201 with the Payment; redirect the customer to its `checkout_url`. */
  create(params: CreatePaymentParams, options?: RequestOptions): Promise<Payment> {
    return this.transport.post<Payment>("/v1/payments", params, options);
  }
  /** GET /v1/payments/{id}. */
  retrieve(id: string): Promise<Payment> {
    return this.transport.get<Payment>(`/v1/payments/${segment(id)}`);
  }
  /** GET /v1/payments: newest first; `await` for a page, `for await` for every payment. */
  list(params: ListPaymentsParams = {}): PageRequest<Payment> {
    return pages<Payment>(this.transport, "/v1/payments", { ...params });
  }
  /** POST /v1/payments/{id}/cancel: a payable payment becomes canceled; a resolved one is payment_not_payable. */
  cancel(id: string, options?: RequestOptions): Promise<Payment> {
    return this.transport.post<Payment>(`/v1/payments/${segment(id)}/cancel`, undefined, options);
  }
  /** GET /v1/payments/{id}/checkout_session: whether the payment still accepts an attempt. */
  checkoutSession(id: string): Promise<CheckoutSession> {
    return this.transport.get<CheckoutSession>(`/v1/payments/${segment(id)}/checkout_session`);
  }
}

export class Links extends Resource {
  /** POST /v1/payment_links: a fixed or variable-amount link; share its `url`. */
  create(params: CreateLinkParams, options?: RequestOptions): Promise<PaymentLink> {
    return this.transport.post<PaymentLink>("/v1/payment_links", params, options);
  }
  /** GET /v1/payment_links: the merchant's links, newest first. */
  list(params: ListLinksParams = {}): PageRequest<PaymentLink> {
    return pages<PaymentLink>(this.transport, "/v1/payment_links", { ...params });
  }
  /** GET /v1/payment_links/{id}: the public view a customer sees (spec 2.2). */
  retrieve(id: string): Promise<PublicPaymentLink> {
    return this.transport.get<PublicPaymentLink>(`/v1/payment_links/${segment(id)}`);
  }
  /** POST /v1/payment_links/{id}/pay: a payment from the link (what the link page does for a customer). */
  pay(id: string, params: PayLinkParams, options?: RequestOptions): Promise<Payment> {
    return this.transport.post<Payment>(`/v1/payment_links/${segment(id)}/pay`, params, options);
  }
}

export class Refunds extends Resource {
  /** POST /v1/refunds: all that remains of the payment unless `amount` is given. */
  create(params: CreateRefundParams, options?: RequestOptions): Promise<Refund> {
    return this.transport.post<Refund>("/v1/refunds", params, options);
  }
  retrieve(id: string): Promise<Refund> {
    return this.transport.get<Refund>(`/v1/refunds/${segment(id)}`);
  }
  /** GET /v1/refunds: newest first, optionally one payment's. */
  list(params: ListRefundsParams = {}): PageRequest<Refund> {
    return pages<Refund>(this.transport, "/v1/refunds", { ...params });
  }
}

export class Events extends Resource {
  /** GET /v1/events/{id}: the envelope as webhooks deliver it. */
  retrieve(id: string): Promise<Event> {
    return this.transport.get<Event>(`/v1/events/${segment(id)}`);
  }
  /** GET /v1/events: the last 30 days, newest first, optionally of one type. */
  list(params: ListEventsParams = {}): PageRequest<Event> {
    return pages<Event>(this.transport, "/v1/events", { ...params });
  }
}

export class BalanceResource extends Resource {
  /** GET /v1/balance: pending, available and in transit per currency, in the key's mode. */
  retrieve(): Promise<Balance> {
    return this.transport.get<Balance>("/v1/balance");
  }
}

export class Payouts extends Resource {
  retrieve(id: string): Promise<Payout> {
    return this.transport.get<Payout>(`/v1/payouts/${segment(id)}`);
  }
  /** GET /v1/payouts: newest first. */
  list(params: ListPayoutsParams = {}): PageRequest<Payout> {
    return pages<Payout>(this.transport, "/v1/payouts", { ...params });
  }
}

export class Chargebacks extends Resource {
  retrieve(id: string): Promise<Chargeback> {
    return this.transport.get<Chargeback>(`/v1/chargebacks/${segment(id)}`);
  }
  /** GET /v1/chargebacks: newest first. */
  list(params: ListChargebacksParams = {}): PageRequest<Chargeback> {
    return pages<Chargeback>(this.transport, "/v1/chargebacks", { ...params });
  }
}

export class WebhookEndpoints extends Resource {
  /** POST /v1/webhook_endpoints: the endpoint with its `secret`, shown here and on rotation only. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.transport.post<WebhookEndpointWithSecret>("/v1/webhook_endpoints", params, options);
  }
  retrieve(id: string): Promise<WebhookEndpoint> {
    return this.transport.get<WebhookEndpoint>(`/v1/webhook_endpoints/${segment(id)}`);
  }
  /** GET /v1/webhook_endpoints: newest first. */
  list(params: ListWebhookEndpointsParams = {}): PageRequest<WebhookEndpoint> {
    return pages<WebhookEndpoint>(this.transport, "/v1/webhook_endpoints", { ...params });
  }
  /** POST /v1/webhook_endpoints/{id}: url, enabled_events and/or enabled. */
  update(id: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.transport.post<WebhookEndpoint>(`/v1/webhook_endpoints/${segment(id)}`, params, options);
  }
  del(id: string): Promise<DeletedWebhookEndpoint> {
    return this.transport.delete<DeletedWebhookEndpoint>(`/v1/webhook_endpoints/${segment(id)}`);
  }
  /** POST /v1/webhook_endpoints/{id}/rotate_secret: a new secret; the previous one keeps signing for 24 h. */
  rotateSecret(id: string, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.transport.post<WebhookEndpointWithSecret>(`/v1/webhook_endpoints/${segment(id)}/rotate_secret`, undefined, options);
  }
  /** POST /v1/webhook_endpoints/{id}/test_event: a signed test event of `type` for this endpoint only. */
  sendTestEvent(id: string, params: SendTestEventParams, options?: RequestOptions): Promise<TestEventSent> {
    return this.transport.post<TestEventSent>(`/v1/webhook_endpoints/${segment(id)}/test_event`, params, options);
  }
}
