import { InitialSchema } from "./initial-schema.ts";
import { Migration20261122031014_drop_refunded_amount } from "./20261122031014-drop-refunded-amount.ts";

/** Every migration, in order. New migrations are appended, never edited. */
export const MIGRATIONS = [InitialSchema, Migration20261122031014_drop_refunded_amount];
