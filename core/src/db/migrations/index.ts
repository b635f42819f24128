import { InitialSchema } from "./initial-schema.ts";

/** Every migration, in order. New migrations are appended, never edited. */
export const MIGRATIONS = [InitialSchema];
