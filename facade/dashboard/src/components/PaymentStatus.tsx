import { useMessages } from "../i18n/i18n.tsx";
import { label } from "../i18n/label.ts";
import { paymentMessages } from "../i18n/messages/payments.ts";
import { StatusBadge, type Tone } from "./StatusBadge.tsx";

const TONES: Record<string, Tone> = {
  captured: "success",
  pending_settlement: "success",
  settled_to_paytami: "success",
  available_to_merchant: "success",
  partially_refunded: "info",
  refunded: "info",
  chargeback: "danger",
  failed: "danger",
  canceled: "neutral",
  expired: "neutral",
  created: "warning",
  processing: "warning",
  authorized: "warning",
};

/** A payment's status in words on its tone's pill. */
export function PaymentStatus({ status }: { status: string }) {
  const m = useMessages(paymentMessages);
  return <StatusBadge tone={TONES[status] ?? "neutral"}>{label(m.statuses, status)}</StatusBadge>;
}
