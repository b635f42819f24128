// The runner, against a real database: it admits only the callers an operation declares (a refusal
// reads and changes nothing), checks the input's shape, resolves a presented API key unless the
// operation does, and opens a transaction for "transaction" alone, writing its events there.
import type { MikroORM } from "@mikro-orm/postgresql";
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { db } from "../db/orm.ts";
import { presentApiKey } from "./api-keys.ts";
import { merchantCaller, OPERATOR, PUBLIC, type Caller, type MerchantCaller, type PresentedCredential, type ServiceName } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createMerchant } from "./merchants.ts";
import { admit, CALLER_KINDS, defineOperation, kindOf, runOperation, TRANSACTION_MODES, type CallerKind, type TransactionMode } from "./operation.ts";
import { admin } from "../operations/admin.ts";
import { deliveries } from "../operations/deliveries.ts";
import { OPERATIONS } from "../operations/index.ts";
import { inTransaction, type Changes, type Tx } from "./unit-of-work.ts";
import { payments } from "../operations/payments.ts";

let database: MigratedDatabase | undefined;
let orm: MikroORM;
let deps: CoreDeps;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 4, now: () => new Date() });
  ({ orm, deps } = database);
});

afterAll(() => database?.close());

const failure = async (promise: Promise<unknown>) =>
  promise.then(
    () => "ran",
    (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : error),
  );

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "admitted";
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

/** A caller of each kind, as a transport would hand it over. */
const CALLER_OF: Record<CallerKind, Caller | PresentedCredential> = {
  merchant: merchantCaller("mer_000000000000000000000000", "test"),
  operator: OPERATOR,
  facade: { kind: "service", name: "facade" },
  dispatcher: { kind: "service", name: "dispatcher" },
  public: PUBLIC,
  session: { ...merchantCaller("mer_000000000000000000000000", "test", "session"), role: "owner" },
};

const count = async (table: "merchants" | "outbox_events") =>
  Number(
    (
      await db(orm.em.fork())
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("who may run an operation", () => {
  test.each(OPERATIONS.map((op) => [op.name, op] as const))("%s admits its declared callers and refuses every other kind as unauthorized", (_name, op) => {
    for (const kind of CALLER_KINDS) {
      expect(
        codeOf(() => admit(op, CALLER_OF[kind])),
        `${op.name} for ${kind}`,
      ).toBe(op.callers.includes(kind) ? "admitted" : "unauthorized");
    }
  });

  test("a presented key, readable or not, is the merchant's kind; the operator acting for a merchant is the operator's", () => {
    expect(kindOf(presentApiKey(undefined))).toBe("merchant");
    expect(kindOf(presentApiKey("sk_test_" + "a".repeat(32)))).toBe("merchant");
    expect(kindOf(merchantCaller("mer_x", "live", "operator"))).toBe("operator");
  });

  test("a process is refused as the acting_for check always answered it", () => {
    expect(codeOf(() => admit(deliveries.record, { kind: "service", name: "dispatcher" }))).toBe("admitted");
    const facade = { kind: "service", name: "facade" as ServiceName } as const;
    expect(codeOf(() => admit(admin.createMerchant, facade))).toBe("unauthorized");
    expect(() => admit(admin.createMerchant, facade)).toThrow("This needs the operator's credential, not the facade's.");
  });

  test("a refused caller changes nothing: the operation never runs and no unit of work is opened", async () => {
    const before = await count("merchants");
    const asMerchant = runOperation(deps, admin.createMerchant, merchantCaller("mer_000000000000000000000000", "test") as never, {
      name: "Intrusa",
      currencies: [],
      methods: [],
    });
    expect(await failure(asMerchant)).toBe("unauthorized: create_merchant needs the operator's credential, not a merchant's API key.");
    let forked = 0;
    const counting = { ...deps, orm: { em: { fork: () => (forked++, orm.em.fork()) } } } as unknown as CoreDeps;
    expect(
      await failure(runOperation(counting, admin.createMerchant, { kind: "service", name: "facade" }, { name: "Intrusa", currencies: [], methods: [] })),
    ).toMatch(/^unauthorized: /);
    expect(forked).toBe(0);
    expect(await count("merchants")).toBe(before);
    // The operator may.
    expect((await runOperation(deps, admin.createMerchant, OPERATOR, { name: "Tienda", currencies: [], methods: [] })).merchantId).toMatch(/^mer_/);
    expect(await count("merchants")).toBe(before + 1);
  });

  test("a dashboard session needs the operation's role or a higher one", async () => {
    const settings = defineOperation({
      name: "change_settings",
      callers: ["session"],
      role: "admin",
      input: z.undefined(),
      transaction: "read",
      run: async (_deps, _tx, caller: MerchantCaller) => caller.role,
    });
    const session = (role: MerchantCaller["role"]) => ({ ...merchantCaller("mer_x", "test", "session"), role });
    expect(await failure(runOperation(deps, settings, session("viewer"), undefined))).toBe(
      "unauthorized: change_settings needs the admin role or above, not viewer.",
    );
    expect(await failure(runOperation(deps, settings, session("developer"), undefined))).toMatch(/^unauthorized: /);
    expect(await failure(runOperation(deps, settings, session(undefined), undefined))).toMatch(/^unauthorized: /);
    expect(await runOperation(deps, settings, session("admin"), undefined)).toBe("admin");
    expect(await runOperation(deps, settings, session("owner"), undefined)).toBe("owner");
    // A role goes with "session" among the callers, and only with it.
    expect(() =>
      defineOperation({ name: "x", callers: ["session"], input: z.undefined(), transaction: "read", run: async (_d, _t, _c: MerchantCaller) => 1 }),
    ).toThrow(/role/);
    expect(() =>
      defineOperation({
        name: "x",
        callers: ["merchant"],
        role: "viewer",
        input: z.undefined(),
        transaction: "read",
        run: async (_d, _t, _c: MerchantCaller) => 1,
      }),
    ).toThrow(/role/);
  });
});

describe("what the runner does before the run", () => {
  test("an input of the wrong shape is a validation_error, and the operation does not run", async () => {
    let ran = false;
    const op = defineOperation({
      name: "shaped",
      callers: ["operator"],
      input: z.strictObject({ id: z.string() }),
      transaction: "read",
      run: async () => {
        ran = true;
        return 1;
      },
    });
    expect(await failure(runOperation(deps, op, OPERATOR, { id: 7 } as never))).toMatch(/^validation_error: id: /);
    expect(await failure(runOperation(deps, op, OPERATOR, { id: "a", extra: 1 } as never))).toMatch(/^validation_error: /);
    expect(ran).toBe(false);
  });

  test("a presented API key is resolved to its merchant, unless the operation resolves it itself", async () => {
    const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Llaves", currencies: [], methods: [] }));
    const whoAsks = (apiKey?: "presented") =>
      defineOperation({
        name: "who_asks",
        callers: ["merchant"],
        ...(apiKey ? { apiKey } : {}),
        input: z.undefined(),
        transaction: "read",
        run: async (_deps, _tx, caller: MerchantCaller | PresentedCredential) => caller,
      });
    const key = presentApiKey(merchant.testApiKey);
    expect(await runOperation(deps, whoAsks(), key, undefined)).toEqual(merchantCaller(merchant.merchantId, "test"));
    expect(await runOperation(deps, whoAsks("presented"), key, undefined)).toEqual(key);
    expect(await failure(runOperation(deps, whoAsks(), presentApiKey("sk_test_" + "0".repeat(32)), undefined))).toMatch(/^unauthorized: /);
    expect(await failure(runOperation(deps, whoAsks(), presentApiKey("Bearer nonsense"), undefined))).toMatch(/^unauthorized: /);
  });
});

describe("the unit of work", () => {
  const inTransactionWhen = (transaction: TransactionMode) =>
    defineOperation({
      name: `mode_${transaction}`,
      callers: ["operator"],
      input: z.undefined(),
      transaction,
      run: async (_deps: CoreDeps, tx: Tx) => (transaction === "transaction" ? { value: tx.isInTransaction(), events: [] } : tx.isInTransaction()),
    });

  test.each(TRANSACTION_MODES)("%s: a transaction around the run for 'transaction' only (no BEGIN/COMMIT otherwise)", async (mode) => {
    expect(await runOperation(deps, inTransactionWhen(mode) as never, OPERATOR, undefined)).toBe(mode === "transaction");
  });

  test("payment creation through the runner stays one statement, in no transaction", async () => {
    const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Una vuelta", currencies: [], methods: [] }));
    // Every statement run through a unit of work the runner made, counted as its result comes back.
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++;
        return args.result;
      },
    };
    const counted = {
      ...deps,
      orm: {
        em: {
          fork: () => {
            const em = orm.em.fork();
            const withCounter = em.getKysely().withPlugin(counting);
            em.getKysely = (() => withCounter) as typeof em.getKysely;
            return em;
          },
        },
      },
    } as unknown as CoreDeps;
    const input = { amount: "15000", currency: "GTQ", method_type: "card", success_url: "https://shop.example/ok", cancel_url: "https://shop.example/no" };
    const created = await runOperation(counted, payments.create, presentApiKey(merchant.testApiKey), { idempotencyKey: "one-round-trip-1", input });
    expect(created.replayed).toBe(false);
    expect(statements).toBe(1);
  });

  test("a transaction's events are written in it: kept when it commits, gone when the run fails after raising them", async () => {
    const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Eventos", currencies: [], methods: [] }));
    const raise = (fail: boolean) =>
      defineOperation({
        name: "raise",
        callers: ["operator"],
        input: z.undefined(),
        transaction: "transaction",
        run: async (_deps, tx: Tx, _caller: Caller): Promise<Changes<string>> => {
          await db(tx)
            .updateTable("merchants")
            .set({ trade_name: fail ? "Fallida" : "Hecha" })
            .where("id", "=", merchant.merchantId)
            .execute();
          if (fail) throw new DomainError("validation_error", "after the change");
          return { value: "done", events: [{ merchantId: merchant.merchantId, mode: "test", type: "payment.succeeded", data: {}, at: new Date() }] };
        },
      });
    const before = await count("outbox_events");
    expect(await failure(runOperation(deps, raise(true), OPERATOR, undefined))).toBe("validation_error: after the change");
    expect(await count("outbox_events")).toBe(before);
    expect(await runOperation(deps, raise(false), OPERATOR, undefined)).toBe("done");
    expect(await count("outbox_events")).toBe(before + 1);
    const row = await db(orm.em.fork()).selectFrom("merchants").select("trade_name").where("id", "=", merchant.merchantId).executeTakeFirstOrThrow();
    expect(row.trade_name).toBe("Hecha");
  });
});
