// "Send a test event" on an endpoint: a real event of a chosen catalog type, written to the outbox
// and so relayed, recorded, signed with the endpoint's secret(s) and attempted by the dispatchers like
// any other, but addressed to that one endpoint (outbox_events.endpoint_id) and about no real object.
// How a merchant tells it from a real one: `livemode` (false in test mode), `test_event: true`, and
// data whose ids are all zeros (pay_000…), which no real object has. It changes no money and is not
// one of the account's events (GET /v1/events leaves it out); it shows in the endpoint's deliveries.
import { sql } from "kysely";
import type { EventType } from "../../../proto/event-catalog.ts";
import { currentTraceparent } from "../../../proto/runtime/spans.ts";
import type { CoreConfig } from "../config.ts";
import { Merchant } from "../db/entities/index.ts";
import { db } from "../db/orm.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { requireOwnEndpoint } from "./endpoint-deliveries.ts";
import { requireEventType } from "./events.ts";
import { newId, type IdPrefix } from "./ids.ts";
import { outboxNotify, outboxQueued } from "./outbox.ts";
import { toPaymentView } from "./payment-view.ts";
import { toPayoutView } from "./payouts.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

/** The id no real object has: the prefix and 24 zeros. */
export const sampleId = (prefix: IdPrefix) => `${prefix}_${"0".repeat(24)}`;

const SAMPLE_AMOUNT = "10000";

/** The data of a test event: the object its type carries, in the shape the API returns it. */
function sampleData(config: Pick<CoreConfig, "publicBaseUrl">, type: EventType, currency: string, at: Date): unknown {
  const paymentId = sampleId("pay");
  const payment = (status: "captured" | "failed" | "canceled") =>
    toPaymentView(config, {
      id: paymentId,
      status,
      currency,
      amount: SAMPLE_AMOUNT,
      service_fee: "0",
      net_amount: SAMPLE_AMOUNT,
      description: "Paytami test event",
      created_at: at,
    });
  const chargeback = (status: "opened" | "won") => ({ id: sampleId("chb"), payment_id: paymentId, amount: SAMPLE_AMOUNT, currency, status });
  const payout = (completed: boolean) =>
    toPayoutView({
      id: sampleId("payout"),
      currency,
      amount: SAMPLE_AMOUNT,
      status: completed ? "completed" : "failed",
      bank_account_id: sampleId("ba"),
      last4: "0000",
      requested_at: at,
      processing_at: at,
      sent_to_bank_at: at,
      completed_at: completed ? at : null,
      failed_at: completed ? null : at,
      canceled_at: null,
      failure_reason: completed ? null : "Paytami test event: the bank refused the payout.",
    });
  switch (type) {
    case "payment.succeeded":
      return payment("captured");
    case "payment.failed":
      return payment("failed");
    case "payment.canceled":
      return payment("canceled");
    case "refund.succeeded":
      return {
        id: sampleId("refund"),
        payment_id: paymentId,
        amount: SAMPLE_AMOUNT,
        currency,
        reason: "requested_by_customer",
        status: "succeeded",
        created_at: at.toISOString(),
      };
    case "chargeback.opened":
      return chargeback("opened");
    case "chargeback.won":
      return chargeback("won");
    case "payout.completed":
      return payout(true);
    case "payout.failed":
      return payout(false);
  }
}

export interface SentTestEvent {
  event_id: string;
  type: EventType;
  endpoint_id: string;
}

/**
 * Writes a test event for the caller's endpoint `endpointId`: one outbox row naming the endpoint and
 * the commit's NOTIFY, in the operation's transaction. A disabled endpoint is refused (nothing
 * would be sent to it).
 */
export async function sendTestEvent(
  deps: CoreDeps,
  tx: Tx,
  caller: MerchantCaller,
  input: { endpointId: string; type: string },
): Promise<Changes<SentTestEvent>> {
  const type = requireEventType(input.type, "type");
  const endpoint = await requireOwnEndpoint(tx, caller, input.endpointId);
  if (!endpoint.enabled) fail("validation_error", `Webhook endpoint ${endpoint.id} is disabled: enable it to send it a test event.`);
  const merchant = await tx.findOne(Merchant, caller.merchantId);
  const currency = merchant?.currencies.includes("GTQ") ? "GTQ" : (merchant?.currencies[0] ?? "GTQ");
  const at = deps.now();
  const id = newId("evt");
  // Key order as the spec lists the envelope, then the two marks; json (not jsonb) keeps it.
  const envelope = {
    id,
    type,
    created_at: at.toISOString(),
    data: sampleData(deps.config, type, currency, at),
    livemode: caller.mode === "live",
    test_event: true,
  };
  await db(tx)
    .with("written", (q) =>
      q
        .insertInto("outbox_events")
        .values({
          id,
          merchant_id: caller.merchantId,
          mode: caller.mode,
          type,
          envelope: sql`${JSON.stringify(envelope)}::json`,
          created_at: at,
          traceparent: currentTraceparent(),
          endpoint_id: endpoint.id,
        })
        .returning("seq"),
    )
    // Queued for the relay and waking it at commit, as every outbox insert (outbox.ts), in the same statement.
    .with("queued", () => outboxQueued("written"))
    .selectNoFrom(outboxNotify.as("notified"))
    .execute();
  return withoutEvents({ event_id: id, type, endpoint_id: endpoint.id });
}
