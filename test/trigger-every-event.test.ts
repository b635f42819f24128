// `paytami trigger` fires every event type of the catalog (spec 6.2), each made by the operations
// real money takes, and each arrives at a real webhook receiver signed, with its id as printed and
// its data exactly in the shape of spec 2.1 / 2.4 / 2.5 / 2.6: the same keys in the same order.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { EVENT_TYPES } from "../proto/event-catalog.ts";
import { verifySignature } from "../proto/webhook-signature.ts";
import { useStack } from "./support/expect.ts";
import { type Merchant } from "./support/stack.ts";
import { lastJson, runCliWith } from "./support/cli-run.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const getStack = useStack({
  dispatcher: true,
  env: { PAYOUT_SCHEDULE: "off", OUTBOX_RELAY_INTERVAL: "50ms", DISPATCHER_POLL_INTERVAL: "100ms", WEBHOOK_RETRY_SCHEDULE: "0,200ms" },
});
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const PAYMENT_KEYS = ["id", "status", "currency", "amount", "service_fee", "net_amount", "description", "checkout_url", "created_at"];
const REFUND_KEYS = ["id", "payment_id", "amount", "currency", "reason", "status"];
const CHARGEBACK_KEYS = ["id", "payment_id", "amount", "currency", "status"];
const PAYOUT_KEYS = [
  "id",
  "currency",
  "amount",
  "status",
  "bank_account_id",
  "bank_account_masked",
  "requested_at",
  "processing_at",
  "sent_to_bank_at",
  "completed_at",
  "failed_at",
  "canceled_at",
  "failure_reason",
];

/** What each type's data must be: its keys in contract order (the Refund may add created_at, "not shown" beyond the table) and its values' rules. */
const SHAPES: Record<(typeof EVENT_TYPES)[number], (data: Record<string, unknown>) => void> = {
  "payment.succeeded": (d) => paymentShape(d, "captured"),
  "payment.failed": (d) => paymentShape(d, "failed"),
  "payment.canceled": (d) => paymentShape(d, "canceled"),
  "refund.succeeded": (d) => {
    expect(Object.keys(d).filter((k) => k !== "created_at")).toEqual(REFUND_KEYS);
    expect(d).toMatchObject({
      id: expect.stringMatching(/^refund_[0-9a-f]{24}$/),
      payment_id: expect.stringMatching(/^pay_/),
      amount: "10000",
      currency: "GTQ",
      reason: "requested_by_customer",
      status: "succeeded",
    });
  },
  "chargeback.opened": (d) => chargebackShape(d, "opened"),
  "chargeback.won": (d) => chargebackShape(d, "won"),
  "payout.completed": (d) => {
    payoutShape(d, "completed");
    expect(d.completed_at).toMatch(ISO);
    expect(d).toMatchObject({ failed_at: null, failure_reason: null, bank_account_masked: "****0001" });
  },
  "payout.failed": (d) => {
    payoutShape(d, "failed");
    expect(d.failed_at).toMatch(ISO);
    expect(d).toMatchObject({ completed_at: null, failure_reason: "account_closed", bank_account_masked: "****0002" });
  },
};

function paymentShape(d: Record<string, unknown>, status: string): void {
  expect(Object.keys(d)).toEqual(PAYMENT_KEYS);
  expect(d).toMatchObject({ status, currency: "GTQ", amount: "10000" });
}

function chargebackShape(d: Record<string, unknown>, status: string): void {
  expect(Object.keys(d)).toEqual(CHARGEBACK_KEYS);
  expect(d).toMatchObject({
    id: expect.stringMatching(/^chb_[0-9a-f]{24}$/),
    payment_id: expect.stringMatching(/^pay_/),
    amount: "10000",
    currency: "GTQ",
    status,
  });
  expect(d).not.toHaveProperty("reason");
}

function payoutShape(d: Record<string, unknown>, status: string): void {
  expect(Object.keys(d)).toEqual(PAYOUT_KEYS);
  expect(d).toMatchObject({
    id: expect.stringMatching(/^payout_[0-9a-f]{24}$/),
    currency: "GTQ",
    status,
    bank_account_id: expect.stringMatching(/^ba_[0-9a-f]{24}$/),
    canceled_at: null,
  });
  expect(BigInt(d.amount as string) > 0n).toBe(true);
  for (const stamp of ["requested_at", "processing_at", "sent_to_bank_at"]) expect(d[stamp]).toMatch(ISO);
}

let home: string;
let receiver: WebhookReceiver;
let merchant: Merchant;
let secret: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-trigger-home-"));
  receiver = await new WebhookReceiver().start();
  merchant = await getStack().admin.createMerchant({ name: "Disparos S.A." });
  const endpoint = await getStack().core.webhooks.createEndpoint({
    merchant_id: merchant.merchantId,
    mode: modeCodec.fromWire("test"),
    url: receiver.url,
    enabled_events: [],
  });
  secret = endpoint.secret;
});
afterAll(async () => {
  await receiver?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

function trigger(type: string): Promise<{ code: number; json: any }> {
  return lastJson(runCliWith(getStack(), { home }, ["trigger", type, "--merchant", merchant.merchantId, "--json"]));
}

describe("paytami trigger covers the whole event catalog", () => {
  test.each(EVENT_TYPES.map((type) => [type]))(
    "%s: fired, delivered signed with the printed id, data in the spec's shape",
    { timeout: 60_000 },
    async (type) => {
      const fired = await trigger(type);
      expect(fired, JSON.stringify(fired.json)).toMatchObject({ code: 0, json: { event_id: expect.stringMatching(/^evt_[0-9a-f]{24}$/), type } });
      await receiver.waitFor((requests) => requests.some((r) => r.eventId === fired.json.event_id), 30_000, `${type} ${fired.json.event_id}`);
      const request = receiver.requests.find((r) => r.eventId === fired.json.event_id)!;
      expect(request.headers["service-event-id"]).toBe(fired.json.event_id);
      expect(verifySignature(String(request.headers["service-signature"]), request.body, secret)).toBe(true);
      const envelope = JSON.parse(request.body.toString()) as { id: string; type: string; created_at: string; data: Record<string, unknown> };
      expect(Object.keys(envelope)).toEqual(["id", "type", "created_at", "data"]);
      expect(envelope).toMatchObject({ id: fired.json.event_id, type, created_at: expect.stringMatching(ISO) });
      SHAPES[type](envelope.data);
    },
  );
});
