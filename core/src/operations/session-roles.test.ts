// The developer's operations a dashboard session may run (API keys, webhook endpoints), through the
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
