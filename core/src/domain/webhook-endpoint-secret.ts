// "Show the secret" in the dashboard (issue 17): the REST API hands an endpoint's secret out only
// when it is made (create, rotate), but a developer who lost it may see it again in the dashboard.
// It is a change-less operation run as a transaction on purpose: the runner audits every session
// operation that is not a read, so each reveal is in the audit log (who saw which endpoint's secret,
// from where), and as a tRPC mutation it is a CSRF-checked POST, never a GET a link could trigger.
import { WebhookEndpoint } from "../db/entities/index.ts";
import type { MerchantCaller } from "./caller.ts";
import type { CoreDeps } from "./deps.ts";
import { fail } from "./errors.ts";
import { isId } from "./ids.ts";
import { withoutEvents, type Changes, type Tx } from "./unit-of-work.ts";

export interface RevealedSecret {
  id: string;
  secret: string;
}

/** The endpoint's current signing secret; another merchant's or mode's endpoint answers as an unknown one. */
export async function revealEndpointSecret(_deps: CoreDeps, tx: Tx, caller: MerchantCaller, id: string): Promise<Changes<RevealedSecret>> {
  const row = isId("we", id) ? await tx.findOne(WebhookEndpoint, { id, merchant_id: caller.merchantId, mode: caller.mode }) : null;
  if (!row) return fail("validation_error", `Unknown webhook endpoint ${id}.`);
  return withoutEvents({ id: row.id, secret: row.secret });
}
