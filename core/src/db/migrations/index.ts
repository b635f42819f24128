import { InitialSchema } from "./initial-schema.ts";
import { Migration20261122031014_drop_refunded_amount } from "./20261122031014-drop-refunded-amount.ts";
import { Migration20261122044124_checkout_lifecycle } from "./20261122044124-checkout-lifecycle.ts";

/** Every migration, in order. New migrations are appended, never edited. */
export const MIGRATIONS = [InitialSchema, Migration20261122031014_drop_refunded_amount, Migration20261122044124_checkout_lifecycle];
