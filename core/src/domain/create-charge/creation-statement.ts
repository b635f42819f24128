import { sql, type QueryCreator, type SelectQueryBuilder, type SqlBool } from "kysely";
import type { DB } from "../../db/orm.ts";
import { statementBuilder } from "../../db/prepared.ts";
import { claimKey } from "../idempotency.ts";

/** The merchant a new charge belongs to, its mode, what it accepts, and the idempotency scope of the attempt. */
export interface ChargeOwnerRow {
  merchant_id: string;
  mode: string;
  currencies: string[];
  methods: string[];
  scope: string;
}

/** What the statement needs of an owner kind (owner-kind.ts): the SELECT that yields the owner. */
export interface OwnerSelect<V> {
  readonly select: (qc: QueryCreator<DB>, values: V) => SelectQueryBuilder<DB, keyof DB, ChargeOwnerRow>;
}

/** The values of one creation statement besides the owner's. */
export interface CreationValues {
  currencies: string[];
  methods: string[];
  idempotency_key: string;
  fingerprint: string;
  response: string;
  now: Date;
  key_expires_at: Date;
  payment_id: string;
  status: string;
  currency: string;
  method_type: string;
  amount: string;
  service_fee: string;
  net_amount: string;
  description: string | null;
  customer_email: string | null;
  customer_name: string | null;
  success_url: string;
  cancel_url: string;
  link_id: string | null;
  expires_at: Date;
}

export interface CreationRow extends ChargeOwnerRow {
  created: SqlBool;
}

/**
 * The creation statement: resolve the owner; keep it only if its policy is the
 * one the draft was priced against; claim the idempotency key in its scope;
 * insert the payment only where the claim succeeded. Returns the owner (if the
 * credential resolved) and whether the payment was inserted.
 */
export function creationStatement<V extends Record<string, unknown>>(kind: OwnerSelect<V>, v: V & CreationValues) {
  // Raw casts: bound arrays compared with @>/<@ and bound values in the insert's select list need their types named.
  const policy = { currencies: sql<string[]>`${v.currencies}::text[]`, methods: sql<string[]>`${v.methods}::text[]` };
  return statementBuilder
    .with("owner", (qc) => kind.select(qc, v))
    .with("priced", (qc) =>
      qc
        .selectFrom("owner")
        .selectAll()
        .where((eb) =>
          eb.and([
            eb("owner.currencies", "@>", policy.currencies),
            eb("owner.currencies", "<@", policy.currencies),
            eb("owner.methods", "@>", policy.methods),
            eb("owner.methods", "<@", policy.methods),
          ]),
        ),
    )
    .with("claim", (qc) =>
      claimKey(qc, "priced", {
        key: v.idempotency_key,
        fingerprint: v.fingerprint,
        resourceId: v.payment_id,
        response: v.response,
        now: v.now,
        expiresAt: v.key_expires_at,
      }),
    )
    .with("created", (qc) =>
      qc
        .insertInto("payments")
        .columns([
          "id",
          "merchant_id",
          "mode",
          "status",
          "currency",
          "method_type",
          "amount",
          "service_fee",
          "net_amount",
          "description",
          "customer_email",
          "customer_name",
          "success_url",
          "cancel_url",
          "link_id",
          "created_at",
          "updated_at",
          "expires_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("priced")
            .innerJoin("claim", "claim.scope", "priced.scope")
            .select([
              sql<string>`${v.payment_id}::text`.as("id"),
              "priced.merchant_id",
              "priced.mode",
              sql<string>`${v.status}::text`.as("status"),
              sql<string>`${v.currency}::text`.as("currency"),
              sql<string>`${v.method_type}::text`.as("method_type"),
              sql<string>`${v.amount}::bigint`.as("amount"),
              sql<string>`${v.service_fee}::bigint`.as("service_fee"),
              sql<string>`${v.net_amount}::bigint`.as("net_amount"),
              sql<string | null>`${v.description}::text`.as("description"),
              sql<string | null>`${v.customer_email}::text`.as("customer_email"),
              sql<string | null>`${v.customer_name}::text`.as("customer_name"),
              sql<string>`${v.success_url}::text`.as("success_url"),
              sql<string>`${v.cancel_url}::text`.as("cancel_url"),
              sql<string | null>`${v.link_id}::text`.as("link_id"),
              sql<Date>`${v.now}::timestamptz`.as("created_at"),
              sql<Date>`${v.now}::timestamptz`.as("updated_at"),
              sql<Date>`${v.expires_at}::timestamptz`.as("expires_at"),
            ]),
        )
        .returning("payments.id"),
    )
    .selectFrom("owner")
    .select(["owner.merchant_id", "owner.mode", "owner.currencies", "owner.methods", "owner.scope"])
    .select((eb) => eb.exists(eb.selectFrom("created").select("created.id")).as("created"));
}
