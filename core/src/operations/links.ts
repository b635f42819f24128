import { z } from "zod";
import { getLinkPayment } from "../domain/link-payment.ts";
import { createLink, deactivateLink, getLink, getPublicLink, listLinks } from "../domain/links.ts";
import { defineOperation } from "../domain/operation.ts";
import { payLink, type PayLinkCommand } from "../domain/pay-link.ts";
import { anId, idempotentCommand, idempotentCommandWith, pageQuery } from "./inputs.ts";

/** Payment links (spec 2.2): the merchant's (its API key, the operator acting for it, a dashboard session: admins change) and the customer's. */
export const links = {
  create: defineOperation({
    name: "create_link",
    callers: ["merchant", "operator", "session"],
    role: "admin",
    // Resolved after the Idempotency-Key check (DESIGN's order).
    apiKey: "presented",
    input: idempotentCommand,
    transaction: "transaction",
    run: createLink,
  }),
  list: defineOperation({
    name: "list_links",
    callers: ["merchant", "operator", "session"],
    role: "viewer",
    input: z.strictObject(pageQuery),
    transaction: "read",
    run: listLinks,
  }),
  // An operator without a merchant sees and deactivates any link.
  get: defineOperation({ name: "get_link", callers: ["merchant", "operator", "session"], role: "viewer", input: anId, transaction: "read", run: getLink }),
  deactivate: defineOperation({
    name: "deactivate_link",
    callers: ["merchant", "operator", "session"],
    role: "admin",
    input: anId,
    transaction: "transaction",
    run: deactivateLink,
  }),
  getPublic: defineOperation({ name: "get_public_link", callers: ["public"], input: anId, transaction: "read", run: getPublicLink }),
  pay: defineOperation({
    name: "pay_link",
    callers: ["public"],
    input: idempotentCommandWith<PayLinkCommand>({ linkId: z.string(), clientIp: z.string() }),
    // The rate limit's admission, then the creation statement: each atomic on its own.
    transaction: "statement",
    run: payLink,
  }),
  // The link's landing page asks about one payment of that link.
  payment: defineOperation({
    name: "get_link_payment",
    callers: ["public"],
    input: z.strictObject({ linkId: z.string(), paymentId: z.string() }),
    transaction: "read",
    run: getLinkPayment,
  }),
};
