import { randomBytes } from "node:crypto";

export const ID_PREFIXES = ["pay", "link", "evt", "refund", "chb", "payout", "ba", "mer", "key", "we", "dlv", "usr", "ses"] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ID_BYTES = 12;
// CSPRNG bytes drawn 256 ids at a time: one randomBytes call per id showed up in the creation profile.
const POOL_BYTES = ID_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

/** `<prefix>_` + 24 lowercase hex characters from a CSPRNG. */
export function newId(prefix: IdPrefix): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}_${hex}`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[0-9a-f]{24}$/.test(value.slice(prefix.length + 1));
}
