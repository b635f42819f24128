// The SDK's names for the API's objects and parameters. Provisional hand-written shapes until the
// generated file (from GET /v1/openapi.json) replaces them.
import type { PageParams } from "./list.ts";

export type Currency = "GTQ" | "USD";

export interface Payment {
  id: string;
  status: string;
  currency: string;
  amount: string;
  service_fee: string;
  net_amount: string;
  description?: string;
  checkout_url: string;
  created_at: string;
}

export interface CreatePaymentParams {
  amount: string;
  currency: string;
  method_type: "card" | "bank_transfer";
  description?: string;
  success_url?: string;
  cancel_url?: string;
  customer?: { email?: string; name?: string };
}

export interface ListPaymentsParams extends PageParams {
  status?: string;
}

export interface CheckoutSession {
  payment_id: string;
  payable: boolean;
  checkout_url?: string;
  reason?: string;
}

export interface PublicPaymentLink {
  title: string;
  description: string;
  merchant_trade_name: string;
  currency: string;
  amount_type: "fixed" | "variable";
  fixed_amount_minor: string | null;
  min_amount_minor: string | null;
  max_amount_minor: string | null;
  payable: boolean;
  not_payable_reason: string | null;
}

export interface PaymentLink extends PublicPaymentLink {
  id: string;
  mode: string;
  active: boolean;
  expires_at: string | null;
  max_payments: number | null;
  succeeded_payments: number;
  success_url: string | null;
  cancel_url: string | null;
  url: string;
  created_at: string;
}

export interface CreateLinkParams {
  title: string;
  description?: string;
  currency: string;
  fixed_amount_minor?: string;
  min_amount_minor?: string;
  max_amount_minor?: string;
  expires_at?: string;
  max_payments?: number;
  success_url?: string;
  cancel_url?: string;
}

export interface PayLinkParams {
  amount?: string;
  method_type?: "card" | "bank_transfer";
  success_url?: string;
  cancel_url?: string;
  customer?: { email?: string; name?: string };
}

export interface Refund {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  reason: string;
  status: string;
  created_at: string;
}

export interface CreateRefundParams {
  payment_id: string;
  amount?: string;
  reason?: string;
}

export interface ListRefundsParams extends PageParams {
  payment_id?: string;
}

export interface Event {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface ListEventsParams extends PageParams {
  type?: string;
}

export interface Balance {
  mode: string;
  balances: Array<{ currency: string; pending: string; available: string; in_transit: string }>;
}

export interface Payout {
  id: string;
  currency: string;
  amount: string;
  status: string;
  bank_account_id: string;
  bank_account_masked: string;
  requested_at: string;
  processing_at: string | null;
  sent_to_bank_at: string | null;
  completed_at: string | null;
  failed_at: string | null;
  canceled_at: string | null;
  failure_reason: string | null;
}

export interface Chargeback {
  id: string;
  payment_id: string;
  amount: string;
  currency: string;
  status: "opened" | "won";
}
