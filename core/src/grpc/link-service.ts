import { currencyCodec, linkAmountTypeCodec, linkNotPayableReasonCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import {
  LinkServiceService,
  type GetLinkPaymentRequest,
  type GetPublicLinkResponse,
  type LinkActingFor,
  type LinkServiceServer,
  type ListLinksRequest,
  type PayLinkRequest,
  type PaymentLink,
} from "../../../proto/gen/paytami/v1/link.ts";
import type { PageBranding } from "../domain/settings/page-branding.ts";
import { brandingMessage } from "./checkout-service.ts";
import type { CoreDeps } from "../domain/deps.ts";
import type { IdempotentResult } from "../domain/idempotency.ts";
import type { Page } from "../domain/keyset-page.ts";
import type { LinkPayment } from "../domain/link-payment.ts";
import type { LinkView, PublicLink } from "../domain/link-view.ts";
import { links } from "../operations/links.ts";
import type { PayLinkCommand } from "../domain/pay-link.ts";
import { actingForOrApiKey, customer, managing } from "./caller.ts";
import { call, serviceOf } from "./method-table.ts";
import { paymentAnswer } from "./payment-service.ts";
import { idempotentCommand } from "./requests.ts";

/** The fields the merchant's link and the public link share, as their gRPC messages carry them. */
function sharedLinkFields(link: LinkView | PublicLink) {
  return {
    currency: currencyCodec.fromWire(link.currency),
    amount_type: linkAmountTypeCodec.fromWire(link.amount_type),
    fixed_amount_minor: link.fixed_amount_minor ?? undefined,
    min_amount_minor: link.min_amount_minor ?? undefined,
    max_amount_minor: link.max_amount_minor ?? undefined,
    not_payable_reason: link.not_payable_reason === null ? undefined : linkNotPayableReasonCodec.fromWire(link.not_payable_reason),
    mode: modeCodec.fromWire(link.mode),
    expires_at: link.expires_at ?? undefined,
  };
}

/** The one mapping from the domain's link object to its gRPC message. */
export function toLinkMessage(view: LinkView): PaymentLink {
  return {
    ...view,
    ...sharedLinkFields(view),
    max_payments: view.max_payments ?? undefined,
    success_url: view.success_url ?? undefined,
    cancel_url: view.cancel_url ?? undefined,
  };
}

function toPublicLinkMessage(link: PublicLink & { branding: PageBranding }): GetPublicLinkResponse {
  return { ...link, ...sharedLinkFields(link), methods: link.methods.map(methodTypeCodec.fromWire), branding: brandingMessage(link.branding) };
}

const linkAnswer = ({ value, replayed }: IdempotentResult<LinkView>) => ({ link: toLinkMessage(value), replayed });
const listQuery = (request: ListLinksRequest) => ({ limit: request.limit, starting_after: request.starting_after, malformed: request.malformed_request });
const linkPage = (page: Page<LinkView>) => ({ data: page.data.map(toLinkMessage), has_more: page.has_more });
const byLinkId = (request: { link_id: string }) => request.link_id;
const theLink = (view: LinkView) => ({ link: toLinkMessage(view) });
const actingOf = (request: { acting_for?: LinkActingFor | undefined }) => request.acting_for;

/** The customer's pay request: the link, the key, the client the rate limit counts, and the body. */
function payCommand(request: PayLinkRequest): PayLinkCommand {
  const { link_id, idempotency_key, client_ip, malformed_request, ...input } = request;
  return { linkId: link_id, idempotencyKey: idempotency_key === "" ? undefined : idempotency_key, input, malformed: malformed_request, clientIp: client_ip };
}

const linkPaymentQuery = (request: GetLinkPaymentRequest) => ({ linkId: request.link_id, paymentId: request.payment_id });
const linkPayment = (payment: LinkPayment) => ({
  ...payment,
  status: paymentStatusCodec.fromWire(payment.status),
  currency: currencyCodec.fromWire(payment.currency),
});

export function linkService(deps: CoreDeps): LinkServiceServer {
  return serviceOf(deps, LinkServiceService, {
    createLink: call(links.create, actingForOrApiKey(actingOf), idempotentCommand, linkAnswer),
    listLinks: call(links.list, actingForOrApiKey(actingOf), listQuery, linkPage),
    getLink: call(links.get, managing(actingOf), byLinkId, theLink),
    deactivateLink: call(links.deactivate, managing(actingOf), byLinkId, theLink),
    getPublicLink: call(links.getPublic, customer, byLinkId, toPublicLinkMessage),
    payLink: call(links.pay, customer, payCommand, paymentAnswer),
    getLinkPayment: call(links.payment, customer, linkPaymentQuery, linkPayment),
  });
}
