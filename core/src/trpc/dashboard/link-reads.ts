import { z } from "zod";
import { dashboard } from "../../operations/dashboard.ts";
import { links } from "../../operations/links.ts";
import { PAGE, pageQuery } from "../inputs.ts";
import { asIs, sessionQuery } from "../operation-procedure.ts";

/**
 * dashboard.links.list / .get / .payments: the link object of GET /v1/payment_links (its state in
 * `active`, `payable` and `not_payable_reason`, its `succeeded_payments`, its page `url`), and the
 * payments made through one link. The links router's actions (create, deactivate) join these in
 * dashboard/index.ts.
 */
export const linkReads = {
  list: sessionQuery(links.list, z.strictObject(PAGE), pageQuery, asIs),
  get: sessionQuery(links.get, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
  payments: sessionQuery(dashboard.linkPayments, z.strictObject({ id: z.string(), ...PAGE }), (input) => ({ ...pageQuery(input), id: input.id }), asIs),
};
