// The dashboard's search by e-mail prefix, as the planner sees it on a real PostgreSQL. Without
// statistics of its own on lower(customer_email) (the partial index's are ignored), every prefix was
// estimated at 0.5 % of the e-mails, rare or common alike, and at 1 000 000 payments a rare one
// walked the merchant's whole list in date order (210-300 ms; test/bench/HISTORY.md, session 39).
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openMigratedDatabase, type MigratedDatabase } from "../../../test/support/database.ts";
import { indexesOf, planNodes } from "../../../test/support/query-plan.ts";
import { db } from "../db/orm.ts";
import { merchantCaller, OPERATOR, type MerchantCaller } from "./caller.ts";
import { createMerchant } from "./merchants.ts";
import { filteredPayments, parsePaymentFilters } from "./payment-filters.ts";
import { inTransaction } from "./unit-of-work.ts";

const PAYMENTS = 20_000;
/** Every other payment has an e-mail, cliente<g>@example.com. */
const WITH_EMAIL = PAYMENTS / 2;
/** PostgreSQL's guess for a LIKE it has no statistics for (DEFAULT_MATCH_SEL). */
const DEFAULT_GUESS = 0.005 * WITH_EMAIL;

let database: MigratedDatabase | undefined;
let caller: MerchantCaller;

beforeAll(async () => {
  database = await openMigratedDatabase({ poolSize: 2, now: () => new Date() });
  const deps = database.deps;
  const merchant = await inTransaction(deps, (tx) => createMerchant(deps, tx, OPERATOR, { name: "Búsqueda", currencies: [], methods: [] }));
  caller = merchantCaller(merchant.merchantId, "test", "session");
  const em = database.orm.em.fork();
  await sql`
    insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount,
                          customer_email, success_url, cancel_url, created_at, updated_at, expires_at)
    select 'pay_search_' || g, ${merchant.merchantId}, 'test', 'created', 'GTQ', 'card', 10000, 550, 9450,
           case when g % 2 = 0 then 'cliente' || g || '@example.com' end,
           'https://shop.example/ok', 'https://shop.example/no', t.ts, t.ts, t.ts + interval '1 day'
    from generate_series(1, ${PAYMENTS}) as g
    cross join lateral (select now() - g * interval '31 seconds' as ts) t`.execute(db(em));
  await sql`analyze payments`.execute(db(em));
}, 60_000);

afterAll(() => database?.close());

/** The planner's view of the dashboard's list query (filteredPayments, one page) for this prefix. */
async function plan(emailPrefix: string): Promise<{ estimatedRows: number; indexes: string[] }> {
  const em = database!.orm.em.fork();
  const query = filteredPayments(db(em).selectFrom("payments").select("id"), caller, parsePaymentFilters({ search: emailPrefix }), undefined).limit(26);
  const nodes = await planNodes(db(em), query);
  return { estimatedRows: nodes.find((node) => node["Relation Name"] === "payments")!["Plan Rows"], indexes: indexesOf(nodes) };
}

test("a rare prefix is estimated as rare, and answered from the e-mail index", async () => {
  // cliente1234@… and cliente12340…12348@…: 6 payments of 20 000.
  const rare = await plan("cliente1234");
  expect(rare.estimatedRows).toBeLessThan(DEFAULT_GUESS / 2);
  expect(rare.indexes).toContain("payments_customer_email_idx");
  const none = await plan("nadie@");
  expect(none.estimatedRows).toBeLessThan(DEFAULT_GUESS / 2);
  expect(none.indexes).toContain("payments_customer_email_idx");
});

test("a prefix every e-mail has is estimated as common, and the list is walked in date order", async () => {
  const common = await plan("cliente");
  // (the null e-mails counted twice, by the `is not null` and by the statistics: 5 000, not 10 000)
  expect(common.estimatedRows).toBeGreaterThan(20 * DEFAULT_GUESS);
  expect(common.indexes).toEqual(["payments_list_idx"]);
});
