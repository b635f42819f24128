import { z } from "zod";
import type { LinkView } from "../../domain/link-view.ts";
import { dashboard } from "../../operations/dashboard.ts";
import { links } from "../../operations/links.ts";
import { PAGE, pageQuery } from "../inputs.ts";
import { asIs, sessionQuery } from "../operation-procedure.ts";

/**
 * dashboard.links.list / .get / .payments: the link object of GET /v1/payment_links (`payable`,
 * `not_payable_reason`, its `succeeded_payments`, its page `url`) with `state` (active, inactive,
 * expired, exhausted), and the payments made through one link. The links router's actions (create, deactivate) join these in
 * dashboard/index.ts.
 */
/** The link object with its state in one word, as the list shows it: active, or why it is not payable. */
const withState = (link: LinkView) => ({ ...link, state: link.not_payable_reason ?? ("active" as const) });

export const linkReads = {
  list: sessionQuery(links.list, z.strictObject(PAGE), pageQuery, (page) => ({ ...page, data: page.data.map(withState) })),
  get: sessionQuery(links.get, z.strictObject({ id: z.string() }), (input) => input.id, withState),
  payments: sessionQuery(dashboard.linkPayments, z.strictObject({ id: z.string(), ...PAGE }), (input) => ({ ...pageQuery(input), id: input.id }), asIs),
};
