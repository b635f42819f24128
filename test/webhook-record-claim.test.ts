// RecordAttempts can claim the next due deliveries in the same call (claim_limit), so the dispatcher
// needs one round trip per send cycle: the claim sees the slots the record just freed, leases what it
// answers like ClaimDueDeliveries, and a call without claim_limit claims nothing (older dispatchers).
import { expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";

const getStack = useStack({ env: { WEBHOOK_ENDPOINT_CONCURRENCY: "1" } });

test("RecordAttempts with claim_limit records, then claims what became claimable", async () => {
  const stack = getStack();
  const merchant = await stack.admin.createMerchant({ name: "Record and claim" });
  const endpoint = await stack.core.webhooks.createEndpoint({
    merchant_id: merchant.merchantId,
    mode: modeCodec.fromWire("test"),
    url: "http://127.0.0.1:9/hooks",
    enabled_events: [],
  });
  const eventIds: string[] = [];
  for (let i = 0; i < 2; i++) {
    const paymentId = (await createOk(stack.http, merchant.testApiKey)).id as string;
    await stack.admin.simulate(paymentId, "succeed");
    const [row] = await stack.sql<{ id: string }>("select id from outbox_events where envelope->'data'->>'id' = $1", [paymentId]);
    eventIds.push(row!.id);
  }
  expect((await stack.core.deliveries.recordDeliveries({ event_ids: eventIds })).created).toBe(2);

  // The endpoint's one slot: the first claim takes one delivery, the second nothing.
  const [first] = (await stack.core.deliveries.claimDueDeliveries({ limit: 10, lease_ms: 60_000 })).deliveries;
  expect(first?.endpoint_id).toBe(endpoint.endpoint!.id);
  expect((await stack.core.deliveries.claimDueDeliveries({ limit: 10, lease_ms: 60_000 })).deliveries).toEqual([]);

  const result = { delivery_id: first!.delivery_id, attempted_at: new Date().toISOString(), http_status: 200, latency_ms: 5, response_excerpt: "ok" };
  const answered = await stack.core.deliveries.recordAttempts({ results: [result], claim_limit: 10, lease_ms: 60_000 });
  expect(answered.deliveries.map((d) => d.event_id)).toEqual(eventIds.filter((id) => id !== first!.event_id));
  expect(answered.deliveries[0]).toMatchObject({ endpoint_id: endpoint.endpoint!.id, attempt: 1, url: "http://127.0.0.1:9/hooks" });
  const [recorded] = await stack.sql<{ status: string }>("select status from webhook_deliveries where id = $1", [first!.delivery_id]);
  expect(recorded!.status).toBe("succeeded");
  // It is leased: neither a claim nor a record without claim_limit hands it out again.
  expect((await stack.core.deliveries.claimDueDeliveries({ limit: 10, lease_ms: 60_000 })).deliveries).toEqual([]);
  expect((await stack.core.deliveries.recordAttempts({ results: [], claim_limit: 0, lease_ms: 0 })).deliveries).toEqual([]);
});
