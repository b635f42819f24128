import { z } from "zod";

// Input → operation input mappings several routers share.

/** A page of a list, as a procedure's input names it. */
export const pageQuery = (input: { limit?: number | undefined; starting_after?: string | undefined }) => ({
  limit: input.limit,
  starting_after: input.starting_after,
});

/** A page's wire fields. */
export const PAGE = { limit: z.number().int().optional(), starting_after: z.string().optional() };

/** The dashboard's payment filters as a procedure's input names them (payment-filters.ts reads their meaning). */
export const PAYMENT_FILTERS = {
  status: z.string().optional(),
  currency: z.string().optional(),
  method: z.string().optional(),
  created_from: z.string().optional(),
  created_to: z.string().optional(),
  search: z.string().optional(),
};

type PaymentListWire = { [K in keyof typeof PAYMENT_FILTERS]?: string | undefined } & { limit?: number | undefined; starting_after?: string | undefined };

/** The payments list's page and filters, without the procedure's other fields. */
export const paymentListQuery = (input: PaymentListWire) => ({
  ...pageQuery(input),
  status: input.status,
  currency: input.currency,
  method: input.method,
  created_from: input.created_from,
  created_to: input.created_to,
  search: input.search,
});
