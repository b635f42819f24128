import { currencyCodec, linkAmountTypeCodec, linkNotPayableReasonCodec, methodTypeCodec, modeCodec, paymentStatusCodec } from "../../../proto/enums.ts";
import type { GetPublicLinkResponse, LinkActingFor, LinkServiceServer, PaymentLink } from "../../../proto/gen/paytami/v1/link.ts";
import { PUBLIC, type MerchantCaller, type OperatorCaller } from "../domain/caller.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { getLinkPayment } from "../domain/link-payment.ts";
import type { LinkView, PublicLink } from "../domain/link-view.ts";
import { createLink, deactivateLink, getLink, getPublicLink, listLinks } from "../domain/links.ts";
import { payLink } from "../domain/pay-link.ts";
import { inTransaction, withoutTransaction } from "../domain/unit-of-work.ts";
import { legacyActingMerchant as actingMerchant, merchantFromApiKey, presentedApiKey } from "./caller.ts";
import { toPaymentMessage } from "./payment-service.ts";
import { unary, type CallContext } from "./unary.ts";

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

function toPublicLinkMessage(link: PublicLink): GetPublicLinkResponse {
  return { ...link, ...sharedLinkFields(link), methods: link.methods.map(methodTypeCodec.fromWire) };
}

async function managingCaller(deps: CoreDeps, ctx: CallContext, acting: LinkActingFor | undefined, anyLink: boolean): Promise<MerchantCaller | OperatorCaller> {
  if (!acting) return merchantFromApiKey(deps, ctx);
  if (anyLink && acting.merchant_id === undefined) return ctx.operator;
  return actingMerchant(ctx, acting);
}

export function linkService(deps: CoreDeps): LinkServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps, method, fn);
  return {
    createLink: handle("CreateLink", async (request, ctx) => {
      const { acting_for, idempotency_key, malformed_request, ...input } = request;
      // An API key is resolved by the operation, after the Idempotency-Key check (DESIGN's order).
      const creator = acting_for ? actingMerchant(ctx, acting_for) : presentedApiKey(ctx);
      const result = await inTransaction(deps, (tx) => createLink(deps, tx, creator, {
        idempotencyKey: idempotency_key === "" ? undefined : idempotency_key,
        input,
        malformed: malformed_request,
      }));
      return { link: toLinkMessage(result.value), replayed: result.replayed };
    }),
    listLinks: handle("ListLinks", async (request, ctx) => {
      const caller = request.acting_for ? actingMerchant(ctx, request.acting_for) : await merchantFromApiKey(deps, ctx);
      const page = await withoutTransaction(deps, (tx) => listLinks(deps, tx, caller, {
        limit: request.limit, starting_after: request.starting_after, malformed: request.malformed_request,
      }));
      return { data: page.data.map(toLinkMessage), has_more: page.has_more };
    }),
    getLink: handle("GetLink", async (request, ctx) => {
      const caller = await managingCaller(deps, ctx, request.acting_for, true);
      return { link: toLinkMessage(await withoutTransaction(deps, (tx) => getLink(deps, tx, caller, request.link_id))) };
    }),
    deactivateLink: handle("DeactivateLink", async (request, ctx) => {
      const caller = await managingCaller(deps, ctx, request.acting_for, true);
      return { link: toLinkMessage(await inTransaction(deps, (tx) => deactivateLink(deps, tx, caller, request.link_id))) };
    }),
    getPublicLink: handle("GetPublicLink", async (request) =>
      toPublicLinkMessage(await withoutTransaction(deps, (tx) => getPublicLink(deps, tx, PUBLIC, request.link_id)))),
    payLink: handle("PayLink", async (request) => {
      const { link_id, idempotency_key, client_ip, malformed_request, ...input } = request;
      const result = await withoutTransaction(deps, (tx) => payLink(deps, tx, PUBLIC, {
        linkId: link_id,
        idempotencyKey: idempotency_key === "" ? undefined : idempotency_key,
        input,
        malformed: malformed_request,
        clientIp: client_ip,
      }));
      return { payment: toPaymentMessage(result.value), replayed: result.replayed };
    }),
    getLinkPayment: handle("GetLinkPayment", async (request) => {
      const payment = await withoutTransaction(deps, (tx) => getLinkPayment(deps, tx, PUBLIC, request.link_id, request.payment_id));
      return { ...payment, status: paymentStatusCodec.fromWire(payment.status), currency: currencyCodec.fromWire(payment.currency) };
    }),
  };
}
