import { ApiKey } from "./api-key.ts";
import { AuditEntry } from "./audit-entry.ts";
import { DashboardSession } from "./dashboard-session.ts";
import { DashboardUser } from "./dashboard-user.ts";
import { Membership } from "./membership.ts";
import { UserToken } from "./user-token.ts";
import { BankAccount } from "./bank-account.ts";
import { Chargeback } from "./chargeback.ts";
import { LedgerLine } from "./ledger-line.ts";
import { LedgerTransaction } from "./ledger-transaction.ts";
import { Payout } from "./payout.ts";
import { Refund } from "./refund.ts";
import { IdempotencyKey } from "./idempotency-key.ts";
import { Link } from "./link.ts";
import { LinkRateLimit } from "./link-rate-limit.ts";
import { Merchant } from "./merchant.ts";
import { MerchantLogo } from "./merchant-logo.ts";
import { OutboxEvent } from "./outbox-event.ts";
import { OutboxPending } from "./outbox-pending.ts";
import { Payment } from "./payment.ts";
import { WebhookAttempt } from "./webhook-attempt.ts";
import { WebhookDelivery } from "./webhook-delivery.ts";
import { WebhookEndpoint } from "./webhook-endpoint.ts";
import { RequestLog } from "./request-log.ts";

export {
  ApiKey,
  AuditEntry,
  DashboardSession,
  DashboardUser,
  Membership,
  UserToken,
  BankAccount,
  Chargeback,
  LedgerLine,
  LedgerTransaction,
  Payout,
  Refund,
  IdempotencyKey,
  Link,
  LinkRateLimit,
  Merchant,
  MerchantLogo,
  OutboxEvent,
  OutboxPending,
  Payment,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  RequestLog,
};
export const ENTITIES = [
  Merchant,
  ApiKey,
  Payment,
  IdempotencyKey,
  OutboxEvent,
  OutboxPending,
  Link,
  LinkRateLimit,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  LedgerTransaction,
  LedgerLine,
  Refund,
  Chargeback,
  BankAccount,
  Payout,
  DashboardUser,
  Membership,
  DashboardSession,
  UserToken,
  AuditEntry,
  RequestLog,
  MerchantLogo,
];
