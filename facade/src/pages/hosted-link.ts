import type { PageBrand } from "./branding.ts";

/** What the link pages show, in the pages' own terms (no gRPC type reaches the rendering). */
export interface HostedLink {
  id: string;
  title: string;
  description: string;
  merchantName: string;
  currency: string;
  mode: "test" | "live";
  /** Minor units as decimal strings: one fixed amount, or the bounds of what the customer may type. */
  amount: { fixed: string } | { min: string; max: string };
  /** The methods the link's currency and merchant both allow, in the order offered. */
  methods: PayMethod[];
  /** Why the link accepts no payment; absent while it is payable. */
  notPayable?: LinkNotPayableReason | undefined;
  /** {PUBLIC_BASE_URL}/l/{id}: what a shared link and its QR code point at. */
  url: string;
  /** The merchant's logo and colours. */
  brand: PageBrand;
}

export type PayMethod = "card" | "bank_transfer";
export type LinkNotPayableReason = "inactive" | "expired" | "exhausted";

/** What the customer sent, shown again with what was wrong with it, and the key of this page load. */
export interface LinkForm {
  idempotencyKey: string;
  amountText?: string | undefined;
  method?: PayMethod | undefined;
  /** Shown next to the amount field. */
  amountError?: string | undefined;
  /** Shown above the pay button: anything not about the amount (too many attempts, service down). */
  formError?: string | undefined;
}
