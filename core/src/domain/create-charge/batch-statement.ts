import { sql, type RawBuilder } from "kysely";
import { PreparedStatement, statementBuilder } from "../../db/prepared.ts";
import type { CreationRow, CreationValues, OwnerSelect } from "./creation-statement.ts";

/** The PostgreSQL type of each of a batch's columns: one array parameter each, unnested side by side. */
const CREATION_COLUMNS: Record<keyof CreationValues, string> = {
  currencies: "text",
  methods: "text",
  idempotency_key: "text",
  fingerprint: "text",
  response: "text",
  now: "timestamptz",
  key_expires_at: "timestamptz",
  payment_id: "text",
  status: "text",
  currency: "text",
  method_type: "text",
  amount: "bigint",
  service_fee: "bigint",
  net_amount: "bigint",
  description: "text",
  customer_email: "text",
  customer_name: "text",
  success_url: "text",
  cancel_url: "text",
  link_id: "text",
  expires_at: "timestamptz",
};

/** A batch's values: one array per column, element i being request i's (a policy's lists joined with ','). */
export type BatchValues = Record<string, unknown[]>;

export interface BatchRow extends Partial<CreationRow> {
  ord: string;
  created: boolean;
}

/**
 * The creation statement (creation-statement.ts) over arrays: request i is row i of `unnest`; the
 * owner is resolved per row (a lateral join on the owner kind's SELECT, fed the row's columns); the
 * key claims are one multi-row insert whose conflicts update nothing unless the held key expired, so
 * a key held elsewhere only drops its own row (the caller then replays it or answers 409) and never
 * aborts the statement; payments are inserted for the rows whose claim succeeded. One row per
 * request, in order: its owner (null: the credential did not resolve) and whether it was created.
 * A batch never holds one key twice (the batcher defers the second: a second claim of a row in
 * one statement is an error in PostgreSQL).
 */
export function batchCreationStatement<V extends Record<string, unknown>>(kind: OwnerSelect<V>, ownerColumns: Record<keyof V & string, string>) {
  // A name in both (an API key's `now`) is one value, as in the single statement, where the request's values share one object.
  const columns: [string, string][] = [...Object.entries(ownerColumns).filter(([name]) => !(name in CREATION_COLUMNS)), ...Object.entries(CREATION_COLUMNS)];
  return new PreparedStatement<BatchValues, BatchRow>((v) => {
    const arrays = sql.join(columns.map(([name, type]) => sql`${v[name]}::${sql.raw(type)}[]`));
    const names = sql.join(columns.map(([name]) => sql.id(name)));
    // The owner kind's SELECT, fed this row's columns instead of bound values.
    const refs = Object.fromEntries(Object.keys(ownerColumns).map((name) => [name, sql.ref(`r.${name}`)])) as unknown as V;
    const select = kind.select(statementBuilder, refs);
    const r = (name: keyof CreationValues): RawBuilder<unknown> => sql.ref(`r.${name}`);
    const policy = (name: "currencies" | "methods") => sql`string_to_array(${r(name)}, ',')`;
    const statement = sql<BatchRow>`with r as (select * from unnest(${arrays}) with ordinality as r(${names}, ord)),
owner as (select r.ord, o.merchant_id, o.mode, o.currencies, o.methods, o.scope from r cross join lateral ${select} as o),
priced as (
  select owner.ord, owner.merchant_id, owner.mode, owner.scope from owner join r on r.ord = owner.ord
  where owner.currencies @> ${policy("currencies")} and owner.currencies <@ ${policy("currencies")}
    and owner.methods @> ${policy("methods")} and owner.methods <@ ${policy("methods")}
),
claim as (
  insert into idempotency_keys (scope, key, fingerprint, resource_id, response, created_at, expires_at)
  select priced.scope, ${r("idempotency_key")}, ${r("fingerprint")}, ${r("payment_id")}, ${r("response")}, ${r("now")}, ${r("key_expires_at")}
  from priced join r on r.ord = priced.ord
  order by priced.scope, ${r("idempotency_key")}
  on conflict (scope, key) do update set fingerprint = excluded.fingerprint, resource_id = excluded.resource_id, response = excluded.response,
    created_at = excluded.created_at, expires_at = excluded.expires_at
  where idempotency_keys.expires_at <= excluded.created_at
  returning idempotency_keys.resource_id
),
created as (
  insert into payments (id, merchant_id, mode, status, currency, method_type, amount, service_fee, net_amount, description,
    customer_email, customer_name, success_url, cancel_url, link_id, created_at, updated_at, expires_at)
  select ${r("payment_id")}, priced.merchant_id, priced.mode, ${r("status")}, ${r("currency")}, ${r("method_type")}, ${r("amount")}, ${r("service_fee")},
    ${r("net_amount")}, ${r("description")}, ${r("customer_email")}, ${r("customer_name")}, ${r("success_url")}, ${r("cancel_url")}, ${r("link_id")},
    ${r("now")}, ${r("now")}, ${r("expires_at")}
  from priced join r on r.ord = priced.ord join claim on claim.resource_id = ${r("payment_id")}
  returning payments.id
)
select r.ord, owner.merchant_id, owner.mode, owner.currencies, owner.methods, owner.scope,
  exists (select 1 from created where created.id = ${r("payment_id")}) as created
from r left join owner on owner.ord = r.ord
order by r.ord`;
    // Raw, not wrapped in a builder: a statement whose CTEs write must be the top level.
    return { compile: () => statement.compile(statementBuilder) };
  });
}
