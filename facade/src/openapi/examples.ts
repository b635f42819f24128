// Recorded by test/openapi-examples.test.ts from real answers of a real stack (OPENAPI_EXAMPLES=record
// rewrites it; every other run checks it still matches what the service answers). Do not edit by hand.

/** operationId → HTTP status → example name ("ok", or the catalog code) → the body. */
export type RecordedExamples = Record<string, Record<string, Record<string, unknown>>>;

export const RECORDED_EXAMPLES: RecordedExamples = {
  createPayment: {
    "201": {
      ok: {
        id: "pay_8ed713e05be1dc101155b741",
        status: "created",
        currency: "GTQ",
        amount: "15000",
        service_fee: "725",
        net_amount: "14275",
        description: "Pedido 1042",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_8ed713e05be1dc101155b741",
        created_at: "2026-11-25T18:28:13.726Z",
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
        id: "pay_8ed713e05be1dc101155b741",
        status: "created",
        currency: "GTQ",
        amount: "15000",
        service_fee: "725",
        net_amount: "14275",
        description: "Pedido 1042",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_8ed713e05be1dc101155b741",
        created_at: "2026-11-25T18:28:13.726Z",
      },
    },
    "404": { unknown_payment: { error: { code: "unknown_payment", message: "No such payment." } } },
  },
  listPayments: {
    "200": {
      ok: {
        data: [
          {
            id: "pay_edd9af1b56580b4fe80af3a3",
            status: "created",
            currency: "GTQ",
            amount: "10000",
            service_fee: "550",
            net_amount: "9450",
            checkout_url: "https://api.paytami.com/v1/checkout/pay_edd9af1b56580b4fe80af3a3",
            created_at: "2026-11-25T18:28:14.061Z",
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
        payment_id: "pay_8ed713e05be1dc101155b741",
        payable: true,
        checkout_url: "https://api.paytami.com/embed/pay_8ed713e05be1dc101155b741?token=1795632194.ryyuCZqXZFazEwxwk0XI71OaP7tAqmtMxEPWO-eVEAY",
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
        id: "pay_9334f4e99333b07f66c307d6",
        status: "canceled",
        currency: "GTQ",
        amount: "10000",
        service_fee: "550",
        net_amount: "9450",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_9334f4e99333b07f66c307d6",
        created_at: "2026-11-25T18:28:14.300Z",
      },
    },
    "409": { payment_not_payable: { error: { code: "payment_not_payable", message: "This payment is canceled and accepts no further attempt." } } },
  },
  createPaymentLink: {
    "201": {
      ok: {
        id: "link_2267c67685a308e4b0fe073f",
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
        url: "https://api.paytami.com/l/link_2267c67685a308e4b0fe073f",
        created_at: "2026-11-25T18:28:14.481Z",
      },
    },
    "400": { validation_error: { error: { code: "validation_error", message: "currency is required." } } },
  },
  listPaymentLinks: {
    "200": {
      ok: {
        data: [
          {
            id: "link_6dd99c3db8897636551c3998",
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
            url: "https://api.paytami.com/l/link_6dd99c3db8897636551c3998",
            created_at: "2026-11-25T18:28:14.520Z",
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
        id: "pay_69dbec183230af1f15e6a7b7",
        status: "created",
        currency: "GTQ",
        amount: "12500",
        service_fee: "638",
        net_amount: "11862",
        description: "Camiseta",
        checkout_url: "https://api.paytami.com/v1/checkout/pay_69dbec183230af1f15e6a7b7",
        created_at: "2026-11-25T18:28:14.579Z",
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
        id: "refund_c2f6b2448d65e82b329d6734",
        payment_id: "pay_8ed713e05be1dc101155b741",
        amount: "5000",
        currency: "GTQ",
        reason: "requested_by_customer",
        status: "succeeded",
        created_at: "2026-11-25T18:28:14.661Z",
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
        id: "refund_c2f6b2448d65e82b329d6734",
        payment_id: "pay_8ed713e05be1dc101155b741",
        amount: "5000",
        currency: "GTQ",
        reason: "requested_by_customer",
        status: "succeeded",
        created_at: "2026-11-25T18:28:14.661Z",
      },
    },
  },
  listRefunds: {
    "200": {
      ok: {
        data: [
          {
            id: "refund_c2f6b2448d65e82b329d6734",
            payment_id: "pay_8ed713e05be1dc101155b741",
            amount: "5000",
            currency: "GTQ",
            reason: "requested_by_customer",
            status: "succeeded",
            created_at: "2026-11-25T18:28:14.661Z",
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
            id: "evt_11ee1f588d666f495340915f",
            type: "refund.succeeded",
            created_at: "2026-11-25T18:28:14.661Z",
            data: {
              id: "refund_c2f6b2448d65e82b329d6734",
              payment_id: "pay_8ed713e05be1dc101155b741",
              amount: "5000",
              currency: "GTQ",
              reason: "requested_by_customer",
              status: "succeeded",
              created_at: "2026-11-25T18:28:14.661Z",
            },
          },
          {
            id: "evt_3d94abedb254f1d8727772d4",
            type: "payment.succeeded",
            created_at: "2026-11-25T18:28:14.641Z",
            data: {
              id: "pay_8ed713e05be1dc101155b741",
              status: "captured",
              currency: "GTQ",
              amount: "15000",
              service_fee: "725",
              net_amount: "14275",
              description: "Pedido 1042",
              checkout_url: "https://api.paytami.com/v1/checkout/pay_8ed713e05be1dc101155b741",
              created_at: "2026-11-25T18:28:13.726Z",
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
        id: "evt_3d94abedb254f1d8727772d4",
        type: "payment.succeeded",
        created_at: "2026-11-25T18:28:14.641Z",
        data: {
          id: "pay_8ed713e05be1dc101155b741",
          status: "captured",
          currency: "GTQ",
          amount: "15000",
          service_fee: "725",
          net_amount: "14275",
          description: "Pedido 1042",
          checkout_url: "https://api.paytami.com/v1/checkout/pay_8ed713e05be1dc101155b741",
          created_at: "2026-11-25T18:28:13.726Z",
        },
      },
    },
    "404": { validation_error: { error: { code: "validation_error", message: "No such event." } } },
  },
  getBalance: {
    "200": {
      ok: {
        mode: "test",
        balances: [
          { currency: "GTQ", pending: "13900", available: "-5000", in_transit: "0" },
          { currency: "USD", pending: "0", available: "0", in_transit: "0" },
        ],
      },
    },
    "401": { unauthorized: { error: { code: "unauthorized", message: "Missing, invalid, revoked or expired API key." } } },
  },
  listPayouts: {
    "200": {
      ok: {
        data: [
          {
            id: "payout_d079bd76d4aa5f862732d943",
            currency: "GTQ",
            amount: "23925",
            status: "completed",
            bank_account_id: "ba_c4b218c188f9290c23dd6d8b",
            bank_account_masked: "****6789",
            requested_at: "2026-11-25T18:28:14.906Z",
            processing_at: "2026-11-25T18:28:14.913Z",
            sent_to_bank_at: "2026-11-25T18:28:14.916Z",
            completed_at: "2026-11-25T18:28:14.918Z",
            failed_at: null,
            canceled_at: null,
            failure_reason: null,
          },
        ],
        has_more: false,
      },
    },
    "400": { validation_error: { error: { code: "validation_error", message: "limit must be an integer from 1 to 100." } } },
  },
  getPayout: {
    "200": {
      ok: {
        id: "payout_d079bd76d4aa5f862732d943",
        currency: "GTQ",
        amount: "23925",
        status: "completed",
        bank_account_id: "ba_c4b218c188f9290c23dd6d8b",
        bank_account_masked: "****6789",
        requested_at: "2026-11-25T18:28:14.906Z",
        processing_at: "2026-11-25T18:28:14.913Z",
        sent_to_bank_at: "2026-11-25T18:28:14.916Z",
        completed_at: "2026-11-25T18:28:14.918Z",
        failed_at: null,
        canceled_at: null,
        failure_reason: null,
      },
    },
    "404": { validation_error: { error: { code: "validation_error", message: "No payout payout_0123456789abcdef01234567." } } },
  },
  listChargebacks: {
    "200": {
      ok: {
        data: [{ id: "chb_72192b4714760934a8963a57", payment_id: "pay_0a72940b0afb4e2dd88b6e6f", amount: "5000", currency: "GTQ", status: "opened" }],
        has_more: false,
      },
    },
  },
  getChargeback: {
    "200": { ok: { id: "chb_72192b4714760934a8963a57", payment_id: "pay_0a72940b0afb4e2dd88b6e6f", amount: "5000", currency: "GTQ", status: "opened" } },
    "404": { validation_error: { error: { code: "validation_error", message: "No chargeback chb_0123456789abcdef01234567." } } },
  },
  createWebhookEndpoint: {
    "201": {
      ok: {
        id: "we_34d1d67063a63d4a5b4cfb88",
        url: "http://127.0.0.1:9/hooks",
        enabled_events: ["payment.succeeded"],
        enabled: true,
        disabled_reason: null,
        previous_secret_expires_at: null,
        created_at: "2026-11-25T22:04:44.096Z",
        updated_at: "2026-11-25T22:04:44.096Z",
        secret: "whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
      },
    },
    "400": {
      validation_error: {
        error: {
          code: "validation_error",
          message:
            'Unknown event type "payment.paid" in enabled_events; expected one of payment.succeeded, payment.failed, payment.canceled, refund.succeeded, chargeback.opened, chargeback.won, payout.completed, payout.failed.',
        },
      },
    },
  },
  listWebhookEndpoints: {
    "200": {
      ok: {
        data: [
          {
            id: "we_34d1d67063a63d4a5b4cfb88",
            url: "http://127.0.0.1:9/hooks",
            enabled_events: ["payment.succeeded"],
            enabled: true,
            disabled_reason: null,
            previous_secret_expires_at: null,
            created_at: "2026-11-25T22:04:44.096Z",
            updated_at: "2026-11-25T22:04:44.096Z",
          },
        ],
        has_more: false,
      },
    },
  },
  getWebhookEndpoint: {
    "200": {
      ok: {
        id: "we_34d1d67063a63d4a5b4cfb88",
        url: "http://127.0.0.1:9/hooks",
        enabled_events: ["payment.succeeded"],
        enabled: true,
        disabled_reason: null,
        previous_secret_expires_at: null,
        created_at: "2026-11-25T22:04:44.096Z",
        updated_at: "2026-11-25T22:04:44.096Z",
      },
    },
    "404": { validation_error: { error: { code: "validation_error", message: "No such webhook endpoint: we_0123456789abcdef01234567." } } },
  },
  updateWebhookEndpoint: {
    "200": {
      ok: {
        id: "we_34d1d67063a63d4a5b4cfb88",
        url: "http://127.0.0.1:9/hooks",
        enabled_events: ["payment.succeeded"],
        enabled: false,
        disabled_reason: "disabled by the merchant",
        previous_secret_expires_at: null,
        created_at: "2026-11-25T22:04:44.096Z",
        updated_at: "2026-11-25T22:04:44.390Z",
      },
    },
    "400": { validation_error: { error: { code: "validation_error", message: "enabled must be true or false." } } },
  },
  rotateWebhookEndpointSecret: {
    "200": {
      ok: {
        id: "we_34d1d67063a63d4a5b4cfb88",
        url: "http://127.0.0.1:9/hooks",
        enabled_events: ["payment.succeeded"],
        enabled: true,
        disabled_reason: null,
        previous_secret_expires_at: "2026-11-26T22:04:44.609Z",
        created_at: "2026-11-25T22:04:44.096Z",
        updated_at: "2026-11-25T22:04:44.609Z",
        secret: "whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG",
      },
    },
  },
  sendWebhookTestEvent: { "200": { ok: { event_id: "evt_b030d3c37dbe997880534526", type: "payment.succeeded", endpoint_id: "we_34d1d67063a63d4a5b4cfb88" } } },
  deleteWebhookEndpoint: {
    "200": { ok: { id: "we_34d1d67063a63d4a5b4cfb88", deleted: true } },
    "404": { validation_error: { error: { code: "validation_error", message: "No such webhook endpoint: we_34d1d67063a63d4a5b4cfb88." } } },
  },
};
