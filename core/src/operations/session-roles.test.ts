// The developer's operations a dashboard session may run (API keys, webhook endpoints, the delivery
// log), through the
// one runner against a real database: the least role holds, the merchant and mode are the
// session's whatever the input names, another merchant's objects are out of reach, and each change
// is audited. (Their dashboard procedures come with the developers' pages.)
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { OPERATOR, type MerchantRole, type SessionCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { DomainError } from "../domain/errors.ts";
import { runOperation } from "../domain/operation.ts";
import { admin } from "./admin.ts";
import { deliveries } from "./deliveries.ts";
import { webhooks } from "./webhooks.ts";

let database: MigratedDatabase | undefined;
let deps: CoreDeps;
let mine: string;
let theirs: string;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  ({ deps } = database);
  mine = (await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Mía", currencies: [], methods: [] })).merchantId;
  theirs = (await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Ajena", currencies: [], methods: [] })).merchantId;
});

afterAll(() => database?.close());

const session = (role: MerchantRole, merchantId = mine): SessionCaller => ({
  kind: "merchant",
  merchantId,
  mode: "test",
  via: "session",
  role,
  session: { userId: "usr_000000000000000000000001", sessionId: "ses_000000000000000000000001", clientIp: "203.0.113.5" },
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof DomainError ? error.code : error),
  );

describe("API keys from a session", () => {
  test("a viewer may not create one; a developer creates one for the session's merchant and mode, whatever the input names", async () => {
    expect(await codeOf(runOperation(deps, admin.createApiKey, session("viewer"), {}))).toBe("unauthorized");
    const issued = await runOperation(deps, admin.createApiKey, session("developer"), { merchantId: theirs, mode: "live" });
    const row = await db(deps.orm.em.fork()).selectFrom("api_keys").select(["merchant_id", "mode"]).where("id", "=", issued.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ merchant_id: mine, mode: "test" });
    const [audit] = await db(deps.orm.em.fork())
      .selectFrom("audit_log")
      .select(["action", "object_id", "merchant_id", "client_ip"])
      .where("object_id", "=", issued.id)
      .execute();
    expect(audit).toEqual({ action: "create_api_key", object_id: issued.id, merchant_id: mine, client_ip: "203.0.113.5" });
  });

  test("another merchant's key, or one of the other mode, cannot be revoked from a session, and stays usable", async () => {
    const foreign = await runOperation(deps, admin.createApiKey, OPERATOR, { merchantId: theirs, mode: "test" });
    const otherMode = await runOperation(deps, admin.createApiKey, OPERATOR, { merchantId: mine, mode: "live" });
    for (const id of [foreign.id, otherMode.id]) expect(await codeOf(runOperation(deps, admin.revokeApiKey, session("owner"), id))).toBe("validation_error");
    const revoked = await db(deps.orm.em.fork()).selectFrom("api_keys").select("revoked_at").where("id", "in", [foreign.id, otherMode.id]).execute();
    expect(revoked).toEqual([{ revoked_at: null }, { revoked_at: null }]);
    const own = await runOperation(deps, admin.createApiKey, session("developer"), {});
    expect(await runOperation(deps, admin.revokeApiKey, session("developer"), own.id)).toEqual({ id: own.id, revoked: true });
  });
});

describe("webhook endpoints from a session", () => {
  test("developers and up list the session's own merchant's endpoints; a viewer may not", async () => {
    expect(await codeOf(runOperation(deps, webhooks.listEndpoints, session("viewer"), undefined))).toBe("unauthorized");
    expect(await runOperation(deps, webhooks.listEndpoints, session("developer", theirs), undefined)).toEqual([]);
  });
});

describe("the delivery log from a session", () => {
  const now = new Date();
  /** An endpoint of `merchantId` in `mode` with one failed delivery; their ids. */
  async function failedDelivery(merchantId: string, mode: "test" | "live", n: string): Promise<{ endpoint: string; delivery: string }> {
    const endpoint = `we_${n.padStart(24, "0")}`;
    const delivery = `dlv_${n.padStart(24, "0")}`;
    const trx = db(deps.orm.em.fork());
    await trx
      .insertInto("webhook_endpoints")
      .values({
        id: endpoint,
        merchant_id: merchantId,
        mode,
        url: "https://example.com/hook",
        enabled_events: ["*"],
        secret: "whsec_x",
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: true,
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto("webhook_deliveries")
      .values({
        id: delivery,
        event_id: `evt_${n.padStart(24, "0")}`,
        event_type: "payment.succeeded",
        endpoint_id: endpoint,
        merchant_id: merchantId,
        mode,
        status: "failed",
        attempt_count: 8,
        round_attempts: 8,
        next_attempt_at: null,
        claimed_until: null,
        last_attempt_at: now,
        last_http_status: 500,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { endpoint, delivery };
  }
  const statusOf = async (id: string) =>
    (await db(deps.orm.em.fork()).selectFrom("webhook_deliveries").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

  test("viewers read their own merchant's and mode's deliveries only; developers replay only those", async () => {
    const own = await failedDelivery(mine, "test", "a1");
    const foreign = await failedDelivery(theirs, "test", "b1");
    const live = await failedDelivery(mine, "live", "c1");
    expect((await runOperation(deps, deliveries.list, session("viewer"), { endpointId: own.endpoint })).map((d) => d.id)).toEqual([own.delivery]);
    expect(await runOperation(deps, deliveries.list, session("viewer"), { endpointId: foreign.endpoint })).toEqual([]);
    expect(await runOperation(deps, deliveries.list, session("viewer"), { endpointId: live.endpoint })).toEqual([]);
    expect((await runOperation(deps, deliveries.get, session("viewer"), own.delivery)).delivery.id).toBe(own.delivery);
    for (const id of [foreign.delivery, live.delivery]) expect(await codeOf(runOperation(deps, deliveries.get, session("owner"), id))).toBe("validation_error");
    expect(await codeOf(runOperation(deps, deliveries.replay, session("viewer"), own.delivery))).toBe("unauthorized");
    for (const id of [foreign.delivery, live.delivery])
      expect(await codeOf(runOperation(deps, deliveries.replay, session("owner"), id))).toBe("validation_error");
    expect(await codeOf(runOperation(deps, deliveries.replayFailed, session("owner"), { endpointId: foreign.endpoint, since: "2000-01-01T00:00:00Z" }))).toBe(
      "validation_error",
    );
    expect([await statusOf(own.delivery), await statusOf(foreign.delivery), await statusOf(live.delivery)]).toEqual(["failed", "failed", "failed"]);
    expect((await runOperation(deps, deliveries.replay, session("developer"), own.delivery)).status).toBe("pending");
  });
});
