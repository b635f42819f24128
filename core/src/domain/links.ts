import type { Currency } from "../config.ts";
import { readPageBranding, type PageBranding } from "./settings/page-branding.ts";
import { db } from "../db/orm.ts";
import { resolveApiKey } from "./api-keys.ts";
import type { MerchantCaller, OperatorCaller, PresentedCredential, PublicCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { DomainError, fail } from "./errors.ts";
import {
  checkIdempotencyKeyShape,
  claimKeyIn,
  merchantScope,
  replayOrConflict,
  requestFingerprint,
  requireIdempotencyKey,
  type IdempotentResult,
} from "./idempotency.ts";
import { isId, newId } from "./ids.ts";
import { linkInputSchema } from "./link-input.ts";
import { LINK_COLUMNS, toLinkView, toPublicLink, type LinkRow, type LinkView, type PublicLink } from "./link-view.ts";
import { parseOrFail } from "./payment-input.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";
import { keysetPage, parseLimit, type Page, type PageQuery } from "./keyset-page.ts";

export const unknownLink = () => new DomainError("unknown_payment_link", "No such payment link.");

/** A link with its merchant, or undefined (malformed ids included); `forUpdate` locks the link row. */
export async function findLink(tx: Tx, id: string, owner?: MerchantCaller, forUpdate = false): Promise<LinkRow | undefined> {
  if (!isId("link", id)) return undefined;
  let q = db(tx).selectFrom("links").innerJoin("merchants", "merchants.id", "links.merchant_id").select(LINK_COLUMNS).where("links.id", "=", id);
  if (owner) q = q.where("links.merchant_id", "=", owner.merchantId).where("links.mode", "=", owner.mode);
  if (forUpdate) q = q.forUpdate("links");
  return q.executeTakeFirst();
}

export interface CreateLinkCommand {
  /** Required with an API key (REST semantics); optional for an operator acting for a merchant. */
  idempotencyKey?: string | undefined;
  /** The fields as the caller sent them (names of the link object); validated here. */
  input: unknown;
  malformed?: string | undefined;
}

/**
 * POST /v1/payment_links (an API key, resolved here after the Idempotency-Key check, so the errors
 * keep DESIGN's order), or an operator acting for a merchant (CLI, tRPC). Check order: key, credential,
 * body shape, currency, amount limits. Idempotency as for payments: scope (merchant, mode).
 */
export async function createLink(
  deps: CoreDeps,
  tx: Tx,
  creator: PresentedCredential | MerchantCaller,
  command: CreateLinkCommand,
): Promise<Changes<IdempotentResult<LinkView>>> {
  const presented = creator.kind !== "merchant";
  const key = presented ? requireIdempotencyKey(command.idempotencyKey) : command.idempotencyKey;
  const caller = presented ? await resolveApiKey(deps, tx, creator) : creator;
  const merchant = await db(tx).selectFrom("merchants").select(["trade_name", "currencies", "methods"]).where("id", "=", caller.merchantId).executeTakeFirst();
  if (!merchant) fail("validation_error", `No merchant ${caller.merchantId}.`);
  if (key !== undefined) {
    requireIdempotencyKey(key);
    checkIdempotencyKeyShape(key);
  }
  if (command.malformed !== undefined) fail("validation_error", command.malformed);
  const input = parseOrFail(linkInputSchema(caller.mode), command.input);
  const policy = deps.config.currencies[input.currency as Currency];
  if (!policy || !merchant!.currencies.includes(input.currency)) fail("currency_not_supported", `Currency ${input.currency} is not enabled for this merchant.`);
  const { min, max } = policy.limits;
  for (const field of ["fixed_amount_minor", "min_amount_minor", "max_amount_minor"] as const) {
    const text = input[field];
    if (text === undefined) continue;
    if (BigInt(text) < min) fail("amount_below_minimum", `${field} must be at least ${min} (minor units of ${input.currency}).`);
    if (BigInt(text) > max) fail("amount_above_maximum", `${field} must be at most ${max} (minor units of ${input.currency}).`);
  }
  const now = deps.now();
  if (input.expires_at !== undefined && Date.parse(input.expires_at) <= now.getTime()) fail("validation_error", "expires_at must be in the future.");

  const row: LinkRow = {
    id: newId("link"),
    merchant_id: caller.merchantId,
    mode: caller.mode,
    title: input.title,
    description: input.description ?? "",
    currency: input.currency,
    fixed_amount: input.fixed_amount_minor ?? null,
    min_amount: input.min_amount_minor ?? null,
    max_amount: input.max_amount_minor ?? null,
    // Stored to the millisecond, like every timestamp, so stored and returned values agree.
    expires_at: input.expires_at === undefined ? null : new Date(Date.parse(input.expires_at)),
    max_payments: input.max_payments ?? null,
    succeeded_payments: 0,
    success_url: input.success_url ?? null,
    cancel_url: input.cancel_url ?? null,
    active: true,
    created_at: now,
    trade_name: merchant!.trade_name,
    currencies: merchant!.currencies,
    methods: merchant!.methods,
  };
  const view = toLinkView(deps.config, row, now);
  const response = JSON.stringify(view);
  if (key !== undefined) {
    const scope = merchantScope(caller);
    const fingerprint = requestFingerprint("create_link", input);
    // Waits for a concurrent holder of the same key; false when the key is taken.
    const claimed = await claimKeyIn(tx, scope, {
      key,
      fingerprint,
      resourceId: row.id,
      response,
      now,
      expiresAt: new Date(now.getTime() + deps.config.idempotencyTtlMs),
    });
    if (!claimed) return withoutEvents(await replayOrConflict(tx, scope, key, fingerprint));
  }
  const { trade_name: _t, currencies: _c, methods: _m, ...columns } = row;
  await db(tx)
    .insertInto("links")
    .values({ ...columns, updated_at: now })
    .execute();
  return withoutEvents({ value: view, replayed: false });
}

/** A merchant's own link, or any link for an operator; another merchant's or mode's answers like a missing one. */
export async function getLink(deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<LinkView> {
  const row = await findLink(tx, id, caller.kind === "merchant" ? caller : undefined);
  if (!row) throw unknownLink();
  return toLinkView(deps.config, row, deps.now());
}

/** Deactivating is final and idempotent: a deactivated link answers `inactive` forever. */
export async function deactivateLink(deps: CoreDeps, tx: Tx, caller: MerchantCaller | OperatorCaller, id: string): Promise<Changes<LinkView>> {
  const row = await findLink(tx, id, caller.kind === "merchant" ? caller : undefined, true);
  if (!row) throw unknownLink();
  const now = deps.now();
  if (row.active) await db(tx).updateTable("links").set({ active: false, updated_at: now }).where("id", "=", id).execute();
  return withoutEvents(toLinkView(deps.config, { ...row, active: false }, now));
}

export type ListLinksQuery = PageQuery;

/** GET /v1/payment_links: newest first, keyset-paginated on (created_at, seq) like payments. */
export async function listLinks(deps: CoreDeps, tx: Tx, caller: MerchantCaller, query: ListLinksQuery): Promise<Page<LinkView>> {
  if (query.malformed !== undefined) fail("validation_error", query.malformed);
  const limit = parseLimit(query.limit);
  const now = deps.now();
  return keysetPage(limit, query.starting_after, {
    noun: "payment links",
    findCursor: (id) =>
      isId("link", id)
        ? db(tx)
            .selectFrom("links")
            .select(["created_at", "seq"])
            .where("id", "=", id)
            .where("merchant_id", "=", caller.merchantId)
            .where("mode", "=", caller.mode)
            .executeTakeFirst()
        : Promise.resolve(undefined),
    fetch: (after, take) => {
      let q = db(tx)
        .selectFrom("links")
        .innerJoin("merchants", "merchants.id", "links.merchant_id")
        .select(LINK_COLUMNS)
        .where("links.merchant_id", "=", caller.merchantId)
        .where("links.mode", "=", caller.mode);
      if (after) q = q.where((eb) => eb(eb.refTuple("links.created_at", "links.seq"), "<", eb.tuple(after.created_at, after.seq)));
      return q.orderBy("links.created_at", "desc").orderBy("links.seq", "desc").limit(take).execute();
    },
    view: (row) => toLinkView(deps.config, row, now),
  });
}

/** GET /v1/payment_links/{id}: 200 for any link that ever existed, whatever its state. */
export async function getPublicLink(deps: CoreDeps, tx: Tx, _caller: PublicCaller, id: string): Promise<PublicLink & { branding: PageBranding }> {
  const row = await findLink(tx, id);
  if (!row) throw unknownLink();
  return { ...toPublicLink(deps.config, row, deps.now()), branding: await readPageBranding(tx, row.merchant_id) };
}
