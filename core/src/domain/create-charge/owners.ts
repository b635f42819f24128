import { sql, type Expression } from "kysely";
import { isActiveKey } from "../api-keys.ts";
import { merchantScopeSql } from "../idempotency.ts";
import type { MerchantCaller, PresentedApiKey } from "../caller.ts";
import { OwnerKind, type ChargeOwner } from "./owner-kind.ts";

/** The idempotency scope of a merchant's own requests, whichever credential they come with: (merchant, mode). */
const merchantScope = (merchantId: Expression<string>, mode: Expression<string>) => merchantScopeSql(merchantId, mode).as("scope");

const API_KEY_OWNER = new OwnerKind<{ digest: string; key_mode: string; now: Date }>(
  (qc, v) =>
    qc
      .selectFrom("api_keys")
      .innerJoin("merchants", "merchants.id", "api_keys.merchant_id")
      .select([
        "api_keys.merchant_id",
        "api_keys.mode",
        "merchants.currencies",
        "merchants.methods",
        merchantScope(sql.ref<string>("api_keys.merchant_id"), sql.ref<string>("api_keys.mode")),
      ])
      .where("api_keys.digest", "=", v.digest)
      .where("api_keys.mode", "=", v.key_mode)
      .where(isActiveKey(v.now)),
  { digest: "text", key_mode: "text", now: "timestamptz" },
);

/** The owner of an API key that may be used now. */
export function apiKeyOwner(key: PresentedApiKey, now: Date): ChargeOwner {
  return { kind: API_KEY_OWNER, values: { digest: key.digest, key_mode: key.mode, now }, hint: `api_key:${key.digest}` };
}

const MERCHANT_OWNER = new OwnerKind<{ merchant_id: string; caller_mode: string }>(
  (qc, v) =>
    qc
      .selectFrom("merchants")
      .select([
        // A bound value in a select list needs its type named (PostgreSQL cannot infer it there).
        "merchants.id as merchant_id",
        sql<string>`${v.caller_mode}::text`.as("mode"),
        "merchants.currencies",
        "merchants.methods",
        merchantScope(sql.ref<string>("merchants.id"), sql<string>`${v.caller_mode}::text`),
      ])
      .where("merchants.id", "=", v.merchant_id),
  { merchant_id: "text", caller_mode: "text" },
);

/** A merchant the transport already resolved (e.g. a dashboard session); same scope as its API keys. */
export function merchantOwner(caller: MerchantCaller): ChargeOwner {
  return { kind: MERCHANT_OWNER, values: { merchant_id: caller.merchantId, caller_mode: caller.mode }, hint: `merchant:${caller.merchantId}` };
}

const LINK_OWNER = new OwnerKind<{ link_id: string }>(
  (qc, v) =>
    qc
      .selectFrom("links")
      .innerJoin("merchants", "merchants.id", "links.merchant_id")
      .select(["links.merchant_id", "links.mode", "merchants.currencies", "merchants.methods", "links.id as scope"])
      .where("links.id", "=", v.link_id),
  { link_id: "text" },
);

/**
 * A payment link: its merchant and mode, and idempotency scoped to the link itself. It takes no
 * row lock: whether the link is payable was read just before (with the rate-limit count), and the
 * one rule that must hold under concurrency, max_payments, is enforced where payments succeed (the
 * capture locks the link row: payment-transitions.ts), not where they are created.
 */
export function linkOwner(linkId: string): ChargeOwner {
  return { kind: LINK_OWNER, values: { link_id: linkId }, hint: `link:${linkId}` };
}
