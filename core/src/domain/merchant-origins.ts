import { Merchant } from "../db/entities/index.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

/** Per list: each origin widens what a page trusts, and nobody needs more. */
export const MAX_MERCHANT_ORIGINS = 20;

/**
 * A bare origin: a scheme, a host, an optional port, nothing else. It goes into CSP lists
 * (frame-ancestors, form-action) and is the postMessage target or the test a return URL must pass,
 * so a path, a wildcard or a stray character would widen or break each of them. Embed origins are
 * https only; return origins may be http too, because test-mode payments may return to http URLs
 * (DESIGN "Validation"), while a live return URL is refused unless https before any origin is
 * compared. Answered in its canonical form (`URL.origin`: lower-case host, no default port).
 */
export function readOrigin(text: string, allowHttp: boolean): string {
  const example = allowHttp ? "an http or https origin such as https://shop.example" : "an https origin such as https://shop.example";
  const bad = () => fail("validation_error", `"${text.slice(0, 100)}" is not ${example}.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad();
  }
  const schemeOk = url.protocol === "https:" || (allowHttp && url.protocol === "http:");
  if (!schemeOk || url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) bad();
  if (!/^https?:\/\/[^/?#*\s]+\/?$/i.test(text) || url.hostname.includes("*")) bad();
  return url.origin;
}

type OriginList = "embed_origins" | "return_origins";

async function replaceOrigins(tx: Tx, merchantId: string, list: OriginList, texts: readonly string[], allowHttp: boolean, noun: string): Promise<string[]> {
  if (texts.length > MAX_MERCHANT_ORIGINS) fail("validation_error", `At most ${MAX_MERCHANT_ORIGINS} ${noun}.`);
  const origins = [...new Set(texts.map((text) => readOrigin(text, allowHttp)))];
  const merchant = isId("mer", merchantId) ? await tx.findOne(Merchant, { id: merchantId }) : null;
  if (!merchant) fail("validation_error", `Unknown merchant "${merchantId}".`);
  merchant![list] = origins;
  await tx.flush();
  return origins;
}

/**
 * Replaces the https origins a live embedded checkout may be framed by
 * (`merchants set-embed-origins`, tRPC merchants.setEmbedOrigins, AdminService SetEmbedOrigins).
 */
export async function setEmbedOrigins(
  _deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  input: { merchantId: string; origins: readonly string[] },
): Promise<Changes<{ merchantId: string; origins: string[] }>> {
  const origins = await replaceOrigins(tx, input.merchantId, "embed_origins", input.origins, false, "embed origins");
  return withoutEvents({ merchantId: input.merchantId, origins });
}

/**
 * Replaces the origins a public link pay may name in success_url / cancel_url besides the link's own
 * (`merchants set-return-origins`, tRPC merchants.setReturnOrigins, AdminService SetReturnOrigins).
 */
export async function setReturnOrigins(
  _deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  input: { merchantId: string; origins: readonly string[] },
): Promise<Changes<{ merchantId: string; origins: string[] }>> {
  const origins = await replaceOrigins(tx, input.merchantId, "return_origins", input.origins, true, "return origins");
  return withoutEvents({ merchantId: input.merchantId, origins });
}
