import type { CoreConfig } from "../config.ts";
import type { PaymentStatus } from "./payment-states.ts";

/** The stored columns the public Payment object (spec 2.1) is built from. */
export interface PaymentRow {
  id: string;
  status: PaymentStatus;
  currency: string;
  amount: string;
  service_fee: string;
  net_amount: string;
  description: string | null;
  created_at: Date;
}

/** The public Payment object, keys in contract order; also the `data` of payment events. */
export interface PaymentView {
  id: string;
  status: PaymentStatus;
  currency: string;
  amount: string;
  service_fee: string;
  net_amount: string;
  description?: string;
  checkout_url: string;
  created_at: string;
}

export const PAYMENT_VIEW_COLUMNS = ["id", "status", "currency", "amount", "service_fee", "net_amount", "description", "created_at"] as const;

export function checkoutUrl(config: Pick<CoreConfig, "publicBaseUrl">, paymentId: string): string {
  return `${config.publicBaseUrl}/v1/checkout/${paymentId}`;
}

export function toPaymentView(config: Pick<CoreConfig, "publicBaseUrl">, row: PaymentRow): PaymentView {
  return {
    id: row.id,
    status: row.status,
    currency: row.currency,
    amount: String(row.amount),
    service_fee: String(row.service_fee),
    net_amount: String(row.net_amount),
    ...(row.description !== null ? { description: row.description } : {}),
    checkout_url: checkoutUrl(config, row.id),
    created_at: row.created_at.toISOString(),
  };
}

/**
 * The public Payment object's JSON as the API answers it (UTF-8, no spaces, keys in contract order
 * whatever order `view` was built in): rendered once here so the facade writes the bytes through.
 * Deterministic, so a replay of the same stored payment is byte-identical.
 */
export function paymentJsonBytes(view: PaymentView): Buffer {
  const ordered: PaymentView = {
    id: view.id,
    status: view.status,
    currency: view.currency,
    amount: view.amount,
    service_fee: view.service_fee,
    net_amount: view.net_amount,
    ...(view.description !== undefined ? { description: view.description } : {}),
    checkout_url: view.checkout_url,
    created_at: view.created_at,
  };
  return Buffer.from(JSON.stringify(ordered));
}
