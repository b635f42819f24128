import { randomBytes } from "node:crypto";

export const ID_PREFIXES = ["pay", "link", "evt", "refund", "chb", "payout", "ba", "mer", "key", "we"] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** `<prefix>_` + 24 lowercase hex characters from a CSPRNG. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(value.slice(prefix.length + 1));
}
