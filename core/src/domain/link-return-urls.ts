import type { Mode } from "../config.ts";
import { db } from "../db/orm.ts";
import { fail } from "./errors.ts";
import type { LinkRow } from "./link-view.ts";
import type { Tx } from "./unit-of-work.ts";

// Anyone may pay a link, and the spec lets them send success_url / cancel_url. Our domain then
// sends the customer there (and the payment page's CSP form-action names that origin), so an
// arbitrary URL would make Paytami an open redirect and a phishing hop. A public pay may therefore
// only name an origin its merchant trusts: one of the link's own configured URLs, or one the
// merchant registered (`merchants set-return-origins`). URLs it leaves out fall back as before.

type ReturnUrls = { success_url?: string | undefined; cancel_url?: string | undefined };

const originOf = (url: string) => new URL(url).origin;

/**
 * Refuses a success_url / cancel_url whose origin the link's merchant has not trusted, with a
 * validation_error naming the origins that are. `urls` have passed the URL schema already (absolute,
 * https in live mode). The merchant's list is read only when a URL is off the link's own origins.
 */
export async function checkLinkReturnUrls(tx: Tx, link: LinkRow, urls: ReturnUrls): Promise<void> {
  const sent = (["success_url", "cancel_url"] as const).filter((field) => urls[field] !== undefined);
  if (sent.length === 0) return;
  const own = [link.success_url, link.cancel_url].filter((u) => u !== null).map(originOf);
  if (sent.every((field) => own.includes(originOf(urls[field]!)))) return;
  const registered = await returnOrigins(tx, link.merchant_id, link.mode as Mode);
  const trusted = [...new Set([...own, ...registered])];
  for (const field of sent) {
    const origin = originOf(urls[field]!);
    if (trusted.includes(origin)) continue;
    fail(
      "validation_error",
      trusted.length === 0
        ? `${field} is not accepted on this link: neither the link nor its merchant names an origin to return to; leave it out to return to the link's own page.`
        : `${field} must be on an origin this link's merchant trusts (${trusted.join(", ")}), not ${origin}.`,
    );
  }
}

/** The merchant's registered return origins that can apply in `mode` (live return URLs are https only). */
async function returnOrigins(tx: Tx, merchantId: string, mode: Mode): Promise<string[]> {
  const row = await db(tx).selectFrom("merchants").select("return_origins").where("id", "=", merchantId).executeTakeFirst();
  const origins = row?.return_origins ?? [];
  return mode === "live" ? origins.filter((o) => o.startsWith("https://")) : origins;
}
