// Payment links for the link-page suites, made through the core's LinkService as an operator
// acting for the merchant (what the CLI and tRPC do), so these suites need no REST route.
import { modeCodec } from "../../proto/enums.ts";
import type { CreateLinkRequest, PaymentLink } from "../../proto/gen/paytami/v1/link.ts";
import type { Merchant, Stack } from "./stack.ts";

export type LinkFields = Omit<CreateLinkRequest, "acting_for" | "idempotency_key" | "malformed_request">;

/** A test-mode link of `merchant`: by default "Donación", GTQ, Q 10.00 – Q 5,000.00. */
export async function createLink(stack: Stack, merchant: Merchant, fields: LinkFields = {}): Promise<PaymentLink> {
  const amount = fields.fixed_amount_minor === undefined ? { min_amount_minor: "1000", max_amount_minor: "500000" } : {};
  const { link } = await stack.core.links.createLink({
    acting_for: { merchant_id: merchant.merchantId, mode: modeCodec.fromWire("test") },
    title: "Donación",
    description: "Para la biblioteca de la escuela",
    currency: "GTQ",
    ...amount,
    ...fields,
  });
  return link!;
}

export async function deactivateLink(stack: Stack, id: string): Promise<void> {
  await stack.core.links.deactivateLink({ acting_for: {}, link_id: id });
}

/** The form fields of a link page as a browser would post them. */
export function formBody(fields: Record<string, string>): { body: string; headers: Record<string, string> } {
  return { body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } };
}

/** The hidden idempotency key of a rendered link page. */
export function pageKey(html: string): string {
  const key = /<input type="hidden" name="idempotency_key" value="([^"]+)"/.exec(html)?.[1];
  if (!key) throw new Error("no idempotency key on the page");
  return key;
}
