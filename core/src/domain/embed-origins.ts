import { Merchant } from "../db/entities/index.ts";
import type { OperatorCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

export const MAX_EMBED_ORIGINS = 20;

/**
 * An origin a live embedded checkout may be framed by: https, a host, an optional port, nothing
 * else (it goes into a CSP frame-ancestors list and is the postMessage target, so a path, a
 * wildcard or a stray character would widen or break both). Answered in its canonical form.
 */
export function readEmbedOrigin(text: string): string {
  const bad = () => fail("validation_error", `"${text.slice(0, 100)}" is not an https origin such as https://shop.example.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad();
  }
  if (url.protocol !== "https:" || url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) bad();
  if (!/^https:\/\/[^/?#*\s]+\/?$/.test(text) || url.hostname.includes("*")) bad();
  return url.origin;
}

/** Replaces the merchant's embed origins (`merchants set-embed-origins`, tRPC merchants.setEmbedOrigins). */
export async function setEmbedOrigins(
  _deps: CoreDeps,
  tx: Tx,
  _operator: OperatorCaller,
  input: { merchantId: string; origins: readonly string[] },
): Promise<Changes<{ merchantId: string; origins: string[] }>> {
  if (input.origins.length > MAX_EMBED_ORIGINS) fail("validation_error", `At most ${MAX_EMBED_ORIGINS} embed origins.`);
  const origins = [...new Set(input.origins.map(readEmbedOrigin))];
  const merchant = isId("mer", input.merchantId) ? await tx.findOne(Merchant, { id: input.merchantId }) : null;
  if (!merchant) fail("validation_error", `Unknown merchant "${input.merchantId}".`);
  merchant!.embed_origins = origins;
  await tx.flush();
  return withoutEvents({ merchantId: input.merchantId, origins });
}
