import { Transport, type PaytamiOptions } from "./http.ts";
import { BalanceResource, Chargebacks, Events, Links, Payments, Payouts, Refunds, WebhookEndpoints } from "./resources.ts";
import type { Event } from "./types.ts";
import { constructEvent } from "./webhooks.ts";

/**
 * Paytami's API for one secret key (`sk_test_…` in test mode, `sk_live_…` in live mode: the key
 * decides the mode, and every call sees only its merchant's objects of that mode).
 *
 *     const paytami = new Paytami(process.env.PAYTAMI_KEY, { baseUrl: "https://pay.example.com" });
 *     const payment = await paytami.payments.create({ amount: "15000", currency: "GTQ", method_type: "card" });
 */
export class Paytami {
  readonly payments: Payments;
  readonly links: Links;
  readonly refunds: Refunds;
  readonly events: Events;
  readonly balance: BalanceResource;
  readonly payouts: Payouts;
  readonly chargebacks: Chargebacks;
  readonly webhookEndpoints: WebhookEndpoints;
  /** Webhook verification needs no key: the endpoint's secret is given per call. */
  readonly webhooks = {
    constructEvent: (rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string, toleranceSeconds = 300): Promise<Event> =>
      constructEvent<Event>(rawBody, signatureHeader, secret, toleranceSeconds),
  };

  constructor(apiKey: string, options: PaytamiOptions) {
    const transport = new Transport(apiKey, options);
    this.payments = new Payments(transport);
    this.links = new Links(transport);
    this.refunds = new Refunds(transport);
    this.events = new Events(transport);
    this.balance = new BalanceResource(transport);
    this.payouts = new Payouts(transport);
    this.chargebacks = new Chargebacks(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
  }
}
