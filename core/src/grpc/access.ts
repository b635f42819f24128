// Which of Paytami's processes may call which gRPC method: the one place this is decided. Each
// process presents its own credential (core/src/domain/service-credentials.ts); the facade gets
// what its routes call and the dispatcher what delivering webhooks needs, so neither credential, if
// stolen from an internet-facing machine, creates merchants or keys, moves payments through sandbox
// steps or reads another process's data. Typed against the generated service definitions: a new
// method does not compile until it is given its callers here.
import { AdminServiceService } from "../../../proto/gen/paytami/v1/admin.ts";
import { CheckoutServiceService } from "../../../proto/gen/paytami/v1/checkout.ts";
import { DeliveryServiceService } from "../../../proto/gen/paytami/v1/delivery.ts";
import { LedgerServiceService } from "../../../proto/gen/paytami/v1/ledger.ts";
import { LinkServiceService } from "../../../proto/gen/paytami/v1/link.ts";
import { PaymentServiceService } from "../../../proto/gen/paytami/v1/payment.ts";
import { PayoutServiceService } from "../../../proto/gen/paytami/v1/payout.ts";
import { RefundServiceService } from "../../../proto/gen/paytami/v1/refund.ts";
import { WebhookServiceService } from "../../../proto/gen/paytami/v1/webhook.ts";
import type { ServiceName } from "../domain/caller.ts";

type Callers = readonly ServiceName[];
type MethodPaths = Record<string, { path: string }>;

const OPERATOR: Callers = ["operator"];
const FACADE: Callers = ["operator", "facade"];
const DISPATCHER: Callers = ["operator", "dispatcher"];

/** One service: its generated definition and, for every one of its methods, who may call it. */
function grant<S extends MethodPaths>(definition: S, callers: { readonly [M in keyof S]: Callers }): Array<[string, Callers]> {
  return Object.entries(definition).map(([method, { path }]) => [path, callers[method as keyof S]]);
}

export const ACCESS: ReadonlyMap<string, Callers> = new Map([
  ...grant(PaymentServiceService, {
    // The facade checks no key by itself: every merchant call resolves the key in the core.
    authenticate: OPERATOR,
    createPayment: FACADE,
    getPayment: FACADE,
    listPayments: FACADE,
    cancelPayment: FACADE,
  }),
  // The hosted pages: a customer's browser, through the facade.
  ...grant(CheckoutServiceService, {
    resolveCheckout: FACADE,
    getCheckoutSession: FACADE,
    getHostedPayment: FACADE,
    verifyEmbedToken: FACADE,
    submitCard: FACADE,
    completeChallenge: FACADE,
    startBankTransfer: FACADE,
    cancelCheckout: FACADE,
    getLogo: FACADE,
  }),
  ...grant(AdminServiceService, {
    createMerchant: OPERATOR,
    createApiKey: OPERATOR,
    revokeApiKey: OPERATOR,
    rollApiKey: OPERATOR,
    simulatePayment: OPERATOR,
    setEmbedOrigins: OPERATOR,
    setReturnOrigins: OPERATOR,
    // Dashboard users: who may sign in to a merchant's dashboard is the operator's to decide.
    inviteUser: OPERATOR,
    resetUserPassword: OPERATOR,
    listUsers: OPERATOR,
  }),
  ...grant(LinkServiceService, {
    createLink: FACADE,
    listLinks: FACADE,
    getLink: OPERATOR,
    deactivateLink: OPERATOR,
    getPublicLink: FACADE,
    payLink: FACADE,
    // The link's landing page (/l/{id}/done) asks about one payment of that link.
    getLinkPayment: FACADE,
  }),
  ...grant(RefundServiceService, {
    createRefund: FACADE,
    getRefund: FACADE,
    listRefunds: FACADE,
  }),
  ...grant(WebhookServiceService, {
    createEndpoint: OPERATOR,
    listEndpoints: OPERATOR,
    updateEndpoint: OPERATOR,
    rotateSecret: OPERATOR,
    deleteEndpoint: OPERATOR,
    // GET /v1/events and /v1/events/{id}.
    listEvents: FACADE,
    getEvent: FACADE,
    triggerEvent: OPERATOR,
    // /v1/webhook_endpoints: the merchant's API key decides.
    createOwnEndpoint: FACADE,
    listOwnEndpoints: FACADE,
    getOwnEndpoint: FACADE,
    updateOwnEndpoint: FACADE,
    rotateOwnEndpointSecret: FACADE,
    deleteOwnEndpoint: FACADE,
    sendTestEvent: FACADE,
  }),
  ...grant(DeliveryServiceService, {
    recordDeliveries: DISPATCHER,
    claimDueDeliveries: DISPATCHER,
    recordAttempts: DISPATCHER,
    releaseDeliveries: DISPATCHER,
    listDeliveries: OPERATOR,
    getDelivery: OPERATOR,
    replayDelivery: OPERATOR,
    replayFailedDeliveries: OPERATOR,
    listRecentEvents: OPERATOR,
  }),
  ...grant(PayoutServiceService, {
    simulateChargeback: OPERATOR,
    addBankAccount: OPERATOR,
    listBankAccounts: OPERATOR,
    requestPayout: OPERATOR,
    // GET /v1/payouts, /v1/payouts/{id}, /v1/chargebacks, /v1/chargebacks/{id}: the merchant's API key decides.
    getPayout: FACADE,
    listPayouts: FACADE,
    getChargeback: FACADE,
    listChargebacks: FACADE,
  }),
  ...grant(LedgerServiceService, {
    verifyLedger: OPERATOR,
    // GET /v1/balance.
    getBalances: FACADE,
    listPaymentLedger: OPERATOR,
  }),
]);

/** Who may call the method at `path` (a gRPC path, "/paytami.v1.AdminService/CreateMerchant"); nobody if it is not listed. */
export function callersOf(path: string): Callers {
  return ACCESS.get(path) ?? [];
}
