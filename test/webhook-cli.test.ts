// The developer and operator tools of the delivery model, through the real `paytami` binary:
// `listen` forwards a merchant's new events signed with the session secret it prints, and
// `deliveries list|show|replay` show and replay what the dispatcher did (tRPC serves the same).
import { createHmac } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { modeCodec } from "../proto/enums.ts";
import { createOk, useStack } from "./support/expect.ts";
import { lastJson, runCliWith, spawnCli } from "./support/cli-run.ts";
import { eventually } from "./support/eventually.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

const getStack = useStack({
  dispatcher: true,
  env: { WEBHOOK_RETRY_SCHEDULE: "0,200ms", WEBHOOK_TIMEOUT: "1s", DISPATCHER_POLL_INTERVAL: "100ms", OUTBOX_RELAY_INTERVAL: "50ms" },
});
let emptyHome: string;
const receivers: WebhookReceiver[] = [];

beforeAll(() => {
  emptyHome = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-cli-home-"));
});
afterAll(async () => {
  for (const r of receivers) await r.stop();
  fs.rmSync(emptyHome, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; json: any }> {
  return lastJson(runCliWith(getStack(), { home: emptyHome }, [...args, "--json"]));
}

async function paymentEvent(key: string, step: "succeed" | "fail"): Promise<string> {
  const stack = getStack();
  const id = (await createOk(stack.http, key)).id as string;
  await stack.admin.simulate(id, step);
  const [row] = await stack.sql<{ id: string }>("select id from outbox_events where envelope->'data'->>'id' = $1", [id]);
  return row!.id;
}

describe("paytami listen", () => {
  test("forwards the merchant's new events, signed with the secret it printed, one line per event", async () => {
    const stack = getStack();
    const merchant = await stack.admin.createMerchant({ name: "Escucha S.A." });
    const other = await stack.admin.createMerchant({ name: "Ajena S.A." });
    const before = await paymentEvent(merchant.testApiKey, "succeed");
    const r = await new WebhookReceiver(() => ({ status: 204 })).start();
    receivers.push(r);
    const child = spawnCli(getStack(), ["listen", "--merchant", merchant.merchantId, "--forward-to", r.url, "--json"], emptyHome);
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const first = JSON.parse((await lines.next()).value as string) as { listening: boolean; secret: string };
      expect(first.listening).toBe(true);
      expect(first.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      await paymentEvent(other.testApiKey, "succeed");
      const succeeded = await paymentEvent(merchant.testApiKey, "succeed");
      const failed = await paymentEvent(merchant.testApiKey, "fail");
      const printed = [JSON.parse((await lines.next()).value as string), JSON.parse((await lines.next()).value as string)];
      expect(printed).toEqual([
        { event_id: succeeded, type: "payment.succeeded", status: 204, error: null, latency_ms: expect.any(Number) },
        { event_id: failed, type: "payment.failed", status: 204, error: null, latency_ms: expect.any(Number) },
      ]);
      expect(r.requests.map((x) => x.eventId)).toEqual([succeeded, failed]);
      expect(r.requests.map((x) => x.eventId)).not.toContain(before);
      for (const req of r.requests) {
        expect(req.headers["service-event-id"]).toBe(req.eventId);
        const [t, v1] = String(req.headers["service-signature"])
          .split(",")
          .map((p) => p.split("=")[1]!);
        expect(v1).toBe(createHmac("sha256", first.secret).update(`${t}.`).update(req.body).digest("hex"));
      }
      // The body is the event as the merchant's endpoints get it.
      const [stored] = await stack.sql<{ envelope: unknown }>("select envelope from outbox_events where id = $1", [succeeded]);
      expect(JSON.parse(r.requests[0]!.body.toString())).toEqual(stored!.envelope);
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("paytami deliveries", () => {
  test("list, show and replay (one delivery, or an endpoint's failed ones since a time)", async () => {
    const stack = getStack();
    const merchant = await stack.admin.createMerchant({ name: "Entregas S.A." });
    let accept = false;
    const r = await new WebhookReceiver(() => (accept ? { status: 200, body: "thanks" } : { status: 500, body: "x".repeat(3000) })).start();
    receivers.push(r);
    const created = await stack.core.webhooks.createEndpoint({
      merchant_id: merchant.merchantId,
      mode: modeCodec.fromWire("test"),
      url: r.url,
      enabled_events: [],
    });
    const endpointId = created.endpoint!.id;
    const since = new Date(Date.now() - 1000).toISOString();
    const events = [await paymentEvent(merchant.testApiKey, "succeed"), await paymentEvent(merchant.testApiKey, "fail")];
    const failed = await eventually(
      async () => {
        const listed = await cli(["deliveries", "list", "--endpoint", endpointId, "--status", "failed"]);
        return listed.json.data?.length === 2 ? listed.json.data : undefined;
      },
      30_000,
      "both deliveries to fail",
    );
    expect(new Set(failed.map((d: { event_id: string }) => d.event_id))).toEqual(new Set(events));
    expect(failed[0]).toMatchObject({
      endpoint_id: endpointId,
      merchant_id: merchant.merchantId,
      mode: "test",
      status: "failed",
      attempt_count: 2,
      last_http_status: 500,
    });

    const shown = await cli(["deliveries", "show", failed[0].id]);
    expect(shown.code).toBe(0);
    expect(shown.json.attempts).toHaveLength(2);
    // The response excerpt is cut to 1 KiB.
    expect(shown.json.attempts[0]).toMatchObject({ http_status: 500, error: null, response_excerpt: "x".repeat(1024) });

    accept = true;
    const one = await cli(["deliveries", "replay", failed[0].id]);
    expect(one.json).toMatchObject({ id: failed[0].id, status: "pending" });
    await eventually(async () => ((await cli(["deliveries", "show", failed[0].id])).json.status === "succeeded" ? true : undefined), 30_000, "the replay");
    const rest = await cli(["deliveries", "replay", "--endpoint", endpointId, "--since", since]);
    expect(rest.json).toEqual({ endpoint_id: endpointId, replayed: 1, delivery_ids: [failed[1].id] });
    await eventually(
      async () => ((await cli(["deliveries", "show", failed[1].id])).json.status === "succeeded" ? true : undefined),
      30_000,
      "the endpoint replay",
    );
    const last = await cli(["deliveries", "show", failed[1].id]);
    expect(last.json.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([500, 500, 200]);

    // tRPC serves the same operations to operators.
    const res = await fetch(`${stack.coreHttpUrl}/trpc/deliveries.list?input=${encodeURIComponent(JSON.stringify({ endpoint_id: endpointId }))}`, {
      headers: { authorization: `Bearer ${stack.internalToken}` },
    });
    const body = (await res.json()) as { result: { data: { data: Array<{ status: string }> } } };
    expect(body.result.data.data.map((d) => d.status)).toEqual(["succeeded", "succeeded"]);

    const bad = await cli(["deliveries", "replay"]);
    expect(bad.code).toBe(1);
    expect(bad.json.error.code).toBe("validation_error");
  });
});
