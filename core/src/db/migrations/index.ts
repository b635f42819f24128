import { InitialSchema } from "./initial-schema.ts";
import { Migration20261122031014_drop_refunded_amount } from "./20261122031014-drop-refunded-amount.ts";
import { Migration20261122043958_add_webhook_endpoints } from "./20261122043958-add-webhook-endpoints.ts";
import { Migration20261122044202_add_payment_links } from "./20261122044202-add-payment-links.ts";
import { Migration20261122052950_checkout_lifecycle } from "./20261122052950-checkout-lifecycle.ts";
import { Migration20261122055455_add_webhook_deliveries } from "./20261122055455-add-webhook-deliveries.ts";
import { Migration20261122070743_money_after_the_charge } from "./20261122070743-money-after-the-charge.ts";
import { Migration20261122080000_event_envelope_keeps_key_order } from "./20261122080000-event-envelope-keeps-key-order.ts";
import { Migration20261125150442_merchant_return_origins } from "./20261125150442-merchant-return-origins.ts";
import { Migration20261125151348_link_attempts_index } from "./20261125151348-link-attempts-index.ts";
import { Migration20261125152002_challenge_reference } from "./20261125152002-challenge-reference.ts";
import { Migration20261125155154_payments_status_check } from "./20261125155154-payments-status-check.ts";
import { Migration20261125175144_chargebacks_list } from "./20261125175144-chargebacks-list.ts";
import { Migration20261125175249_dashboard_users } from "./20261125175249-dashboard-users.ts";
import { Migration20261125175356_dashboard_payment_indexes } from "./20261125175356-dashboard-payment-indexes.ts";
import { Migration20261125185428_outbox_traceparent } from "./20261125185428-outbox-traceparent.ts";
import { Migration20261125210935_request_logs } from "./20261125210935-request-logs.ts";
import { Migration20261125211325_api_key_last_used } from "./20261125211325-api-key-last-used.ts";
import { Migration20261125212349_test_event_endpoint } from "./20261125212349-test-event-endpoint.ts";
import { Migration20261125221046_merchant_settings } from "./20261125221046-merchant-settings.ts";
import { Migration20261126013732_payments_refunded_amount } from "./20261126013732-payments-refunded-amount.ts";
import { Migration20261126091500_outbox_fillfactor } from "./20261126091500-outbox-fillfactor.ts";
import { Migration20261126200604_outbox_pending } from "./20261126200604-outbox-pending.ts";
import { Migration20261127113000_payments_email_statistics } from "./20261127113000-payments-email-statistics.ts";
import { Migration20261127115625_request_logs_failed_index } from "./20261127115625-request-logs-failed-index.ts";

/** Every migration, in order. New migrations are appended, never edited. */
export const MIGRATIONS = [
  InitialSchema,
  Migration20261122031014_drop_refunded_amount,
  Migration20261122043958_add_webhook_endpoints,
  Migration20261122044202_add_payment_links,
  Migration20261122052950_checkout_lifecycle,
  Migration20261122055455_add_webhook_deliveries,
  Migration20261122070743_money_after_the_charge,
  Migration20261122080000_event_envelope_keeps_key_order,
  Migration20261125150442_merchant_return_origins,
  Migration20261125151348_link_attempts_index,
  Migration20261125152002_challenge_reference,
  Migration20261125155154_payments_status_check,
  Migration20261125175144_chargebacks_list,
  Migration20261125175249_dashboard_users,
  Migration20261125175356_dashboard_payment_indexes,
  Migration20261125185428_outbox_traceparent,
  Migration20261125210935_request_logs,
  Migration20261125211325_api_key_last_used,
  Migration20261125212349_test_event_endpoint,
  Migration20261125221046_merchant_settings,
  Migration20261126013732_payments_refunded_amount,
  Migration20261126091500_outbox_fillfactor,
  Migration20261126200604_outbox_pending,
  Migration20261127113000_payments_email_statistics,
  Migration20261127115625_request_logs_failed_index,
];
