import { ApiKey } from "./api-key.ts";
import { IdempotencyKey } from "./idempotency-key.ts";
import { Merchant } from "./merchant.ts";
import { OutboxEvent } from "./outbox-event.ts";
import { Payment } from "./payment.ts";
import { WebhookAttempt } from "./webhook-attempt.ts";
import { WebhookDelivery } from "./webhook-delivery.ts";
import { WebhookEndpoint } from "./webhook-endpoint.ts";

export { ApiKey, IdempotencyKey, Merchant, OutboxEvent, Payment, WebhookAttempt, WebhookDelivery, WebhookEndpoint };
export const ENTITIES = [Merchant, ApiKey, Payment, IdempotencyKey, OutboxEvent, WebhookEndpoint, WebhookDelivery, WebhookAttempt];
