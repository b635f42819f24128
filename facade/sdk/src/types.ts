// The SDK's names for the API's objects and parameters: the types generated from the OpenAPI
// document (generated/types.gen.ts, by `node facade/sdk/generate-types.ts`), re-exported, and the
// list parameters adapted where the SDK takes a number for what the query string carries as text.
import type * as api from "./generated/types.gen.ts";

export type {
  Balance,
  BalanceAmounts,
  Chargeback,
  CheckoutSession,
  CreateLinkRequest as CreateLinkParams,
  CreatePaymentRequest as CreatePaymentParams,
  CreateRefundRequest as CreateRefundParams,
  Currency,
  Event,
  Money,
  PayLinkRequest as PayLinkParams,
  Payment,
  PaymentLink,
  PaymentLinkPublicView as PublicPaymentLink,
  PaymentStatus,
  Payout,
  Refund,
  Timestamp,
  CreateWebhookEndpointRequest as CreateWebhookEndpointParams,
  UpdateWebhookEndpointRequest as UpdateWebhookEndpointParams,
  SendTestEventRequest as SendTestEventParams,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  DeletedWebhookEndpoint,
  TestEventSent,
} from "./generated/types.gen.ts";

/** A list's query as the document has it, with `limit` a number (1 to 100). */
type ListParams<Q> = Omit<NonNullable<Q>, "limit"> & { limit?: number };

export type ListPaymentsParams = ListParams<api.ListPaymentsData["query"]>;
export type ListLinksParams = ListParams<api.ListPaymentLinksData["query"]>;
export type ListRefundsParams = ListParams<api.ListRefundsData["query"]>;
export type ListEventsParams = ListParams<api.ListEventsData["query"]>;
export type ListPayoutsParams = ListParams<api.ListPayoutsData["query"]>;
export type ListChargebacksParams = ListParams<api.ListChargebacksData["query"]>;
export type ListWebhookEndpointsParams = ListParams<api.ListWebhookEndpointsData["query"]>;

/** An event's `type`: the event catalog. */
export type EventType = api.Event["type"];
