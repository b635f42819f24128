// Recorded by test/openapi-examples.test.ts from real answers of a real stack (OPENAPI_EXAMPLES=record
// rewrites it; every other run checks it still matches what the service answers). Do not edit by hand.

/** operationId → HTTP status → example name ("ok", or the catalog code) → the body. */
export type RecordedExamples = Record<string, Record<string, Record<string, unknown>>>;

export const RECORDED_EXAMPLES: RecordedExamples = {
  createPayment: {
    "201": {
      ok: {
        id: "pay_8f98907342bb55b11e0d6d26",
        status: "created",
        currency: "GTQ",
        amount: "15000",
        service_fee: "725",
        net_amount: "14275",
        description: "Pedido 1042",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_8f98907342bb55b11e0d6d26",
        created_at: "2026-11-25T18:03:16.816Z",
      },
    },
    "400": {
      idempotency_key_required: { error: { code: "idempotency_key_required", message: "An Idempotency-Key header of at least 8 characters is required." } },
      validation_error: {
        error: {
          code: "validation_error",
          message: "amount must be a string holding an integer in minor units (no sign, decimals or leading zeros, at most 16 digits).",
        },
      },
      currency_not_supported: { error: { code: "currency_not_supported", message: "Currency EUR is not enabled for this merchant." } },
      method_not_supported: { error: { code: "method_not_supported", message: "Payment method bank_transfer is not available for USD." } },
      amount_below_minimum: { error: { code: "amount_below_minimum", message: "amount must be at least 500 (minor units of GTQ)." } },
      amount_above_maximum: { error: { code: "amount_above_maximum", message: "amount must be at most 10000000 (minor units of GTQ)." } },
    },
    "401": { unauthorized: { error: { code: "unauthorized", message: "Missing, invalid, revoked or expired API key." } } },
    "409": { idempotency_key_reused: { error: { code: "idempotency_key_reused", message: "This Idempotency-Key was already used for a different request." } } },
  },
  getPayment: {
    "200": {
      ok: {
        id: "pay_8f98907342bb55b11e0d6d26",
        status: "created",
        currency: "GTQ",
        amount: "15000",
        service_fee: "725",
        net_amount: "14275",
        description: "Pedido 1042",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_8f98907342bb55b11e0d6d26",
        created_at: "2026-11-25T18:03:16.816Z",
      },
    },
    "404": { unknown_payment: { error: { code: "unknown_payment", message: "No such payment." } } },
  },
  listPayments: {
    "200": {
      ok: {
        data: [
          {
            id: "pay_b5fdc4334b785b711d5276a4",
            status: "created",
            currency: "GTQ",
            amount: "10000",
            service_fee: "550",
            net_amount: "9450",
            checkout_url: "https://api.paytami.com/v1/checkout/pay_b5fdc4334b785b711d5276a4",
            created_at: "2026-11-25T18:03:17.278Z",
          },
        ],
        has_more: true,
      },
    },
    "400": { validation_error: { error: { code: "validation_error", message: "limit must be an integer from 1 to 100." } } },
  },
  getCheckoutSession: {
    "200": {
      ok: {
        payment_id: "pay_8f98907342bb55b11e0d6d26",
        payable: true,
        checkout_url: "https://api.paytami.com/embed/pay_8f98907342bb55b11e0d6d26?token=1795630697.ozZ_eHE73OgsFVH6PLyH29NJhp1MmsiLnRs-ExCGfFg",
      },
    },
    "404": { unknown_payment: { error: { code: "unknown_payment", message: "No such payment." } } },
  },
  redirectToCheckout: {
    "404": { unknown_payment: { error: { code: "unknown_payment", message: "No such payment." } } },
    "409": { payment_not_payable: { error: { code: "payment_not_payable", message: "This payment is partially_refunded and accepts no further attempt." } } },
  },
  cancelPayment: {
    "200": {
      ok: {
        id: "pay_6b1b13991ae1ed7d9ad3df04",
        status: "canceled",
        currency: "GTQ",
        amount: "10000",
        service_fee: "550",
        net_amount: "9450",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_6b1b13991ae1ed7d9ad3df04",
        created_at: "2026-11-25T18:03:17.439Z",
      },
    },
    "409": { payment_not_payable: { error: { code: "payment_not_payable", message: "This payment is canceled and accepts no further attempt." } } },
  },
  createPaymentLink: {
    "201": {
      ok: {
        id: "link_f9b0c01767b3791a46974213",
        title: "Camiseta",
        description: "Talla M",
        merchant_trade_name: "Tienda Ejemplo",
        currency: "GTQ",
        amount_type: "fixed",
        fixed_amount_minor: "12500",
        min_amount_minor: null,
        max_amount_minor: null,
        payable: true,
        not_payable_reason: null,
        mode: "test",
        active: true,
        expires_at: null,
        max_payments: null,
        succeeded_payments: 0,
        success_url: null,
        cancel_url: null,
        url: "https://api.paytami.com/l/link_f9b0c01767b3791a46974213",
        created_at: "2026-11-25T18:03:17.569Z",
      },
    },
    "400": { validation_error: { error: { code: "validation_error", message: "currency is required." } } },
  },
  listPaymentLinks: {
    "200": {
      ok: {
        data: [
          {
            id: "link_8bd21d46bf3dcdf3c09cbadb",
            title: "Donación",
            description: "Biblioteca escolar",
            merchant_trade_name: "Tienda Ejemplo",
            currency: "GTQ",
            amount_type: "variable",
            fixed_amount_minor: null,
            min_amount_minor: "1000",
            max_amount_minor: "500000",
            payable: true,
            not_payable_reason: null,
            mode: "test",
            active: true,
            expires_at: null,
            max_payments: null,
            succeeded_payments: 0,
            success_url: null,
            cancel_url: null,
            url: "https://api.paytami.com/l/link_8bd21d46bf3dcdf3c09cbadb",
            created_at: "2026-11-25T18:03:17.606Z",
          },
        ],
        has_more: true,
      },
    },
  },
  getPaymentLink: {
    "200": {
      ok: {
        title: "Camiseta",
        description: "Talla M",
        merchant_trade_name: "Tienda Ejemplo",
        currency: "GTQ",
        amount_type: "fixed",
        fixed_amount_minor: "12500",
        min_amount_minor: null,
        max_amount_minor: null,
        payable: true,
        not_payable_reason: null,
      },
    },
    "404": { unknown_payment_link: { error: { code: "unknown_payment_link", message: "No such payment link." } } },
  },
  payPaymentLink: {
    "201": {
      ok: {
        id: "pay_f86984654895de6e7c2953aa",
        status: "created",
        currency: "GTQ",
        amount: "12500",
        service_fee: "638",
        net_amount: "11862",
        description: "Camiseta",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_f86984654895de6e7c2953aa",
        created_at: "2026-11-25T18:03:17.711Z",
      },
    },
    "400": {
      amount_required: { error: { code: "amount_required", message: "amount is required: this link lets the customer choose the amount." } },
      amount_below_minimum: { error: { code: "amount_below_minimum", message: "amount must be at least 1000 (minor units of GTQ)." } },
    },
    "404": { unknown_payment_link: { error: { code: "unknown_payment_link", message: "No such payment link." } } },
  },
  createRefund: {
    "201": {
      ok: {
        id: "refund_c3e82b911a6ded10307b4466",
        payment_id: "pay_8f98907342bb55b11e0d6d26",
        amount: "5000",
        currency: "GTQ",
        reason: "requested_by_customer",
        status: "succeeded",
        created_at: "2026-11-25T18:03:17.868Z",
      },
    },
    "400": {
      refund_amount_exceeds_remaining: {
        error: { code: "refund_amount_exceeds_remaining", message: "The refund amount 50000 exceeds what remains of the payment: 10000 (minor units of GTQ)." },
      },
      payment_not_refundable: {
        error: {
          code: "payment_not_refundable",
          message:
            "Cannot refundPart a payment in status canceled; it must be captured or pending_settlement or settled_to_paytami or available_to_merchant or partially_refunded.",
        },
      },
    },
  },
  getRefund: {
    "200": {
      ok: {
        id: "refund_c3e82b911a6ded10307b4466",
        payment_id: "pay_8f98907342bb55b11e0d6d26",
        amount: "5000",
        currency: "GTQ",
        reason: "requested_by_customer",
        status: "succeeded",
        created_at: "2026-11-25T18:03:17.868Z",
      },
    },
  },
  listRefunds: {
    "200": {
      ok: {
        data: [
          {
            id: "refund_c3e82b911a6ded10307b4466",
            payment_id: "pay_8f98907342bb55b11e0d6d26",
            amount: "5000",
            currency: "GTQ",
            reason: "requested_by_customer",
            status: "succeeded",
            created_at: "2026-11-25T18:03:17.868Z",
          },
        ],
        has_more: false,
      },
    },
  },
  listEvents: {
    "200": {
      ok: {
        data: [
          {
            id: "evt_bcf3fb139cb6a628820a89d7",
            type: "refund.succeeded",
            created_at: "2026-11-25T18:03:17.868Z",
            data: {
              id: "refund_c3e82b911a6ded10307b4466",
              payment_id: "pay_8f98907342bb55b11e0d6d26",
              amount: "5000",
              currency: "GTQ",
              reason: "requested_by_customer",
              status: "succeeded",
              created_at: "2026-11-25T18:03:17.868Z",
            },
          },
          {
            id: "evt_65d1ace311944f73c1bd4527",
            type: "payment.succeeded",
            created_at: "2026-11-25T18:03:17.845Z",
            data: {
              id: "pay_8f98907342bb55b11e0d6d26",
              status: "captured",
              currency: "GTQ",
              amount: "15000",
              service_fee: "725",
              net_amount: "14275",
              description: "Pedido 1042",
              checkout_url: "https://api.paytami.com/v1/checkout/pay_8f98907342bb55b11e0d6d26",
              created_at: "2026-11-25T18:03:16.816Z",
            },
          },
        ],
        has_more: true,
      },
    },
  },
  getEvent: {
    "200": {
      ok: {
        id: "evt_65d1ace311944f73c1bd4527",
        type: "payment.succeeded",
        created_at: "2026-11-25T18:03:17.845Z",
        data: {
          id: "pay_8f98907342bb55b11e0d6d26",
          status: "captured",
          currency: "GTQ",
          amount: "15000",
          service_fee: "725",
          net_amount: "14275",
          description: "Pedido 1042",
          checkout_url: "https://api.paytami.com/v1/checkout/pay_8f98907342bb55b11e0d6d26",
          created_at: "2026-11-25T18:03:16.816Z",
        },
      },
    },
    "404": { validation_error: { error: { code: "validation_error", message: "No such event." } } },
  },
};
