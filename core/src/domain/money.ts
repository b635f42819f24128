import type { FeeRule } from "../config.ts";

const AMOUNT = /^(0|[1-9][0-9]{0,15})$/;

/** Parses a wire amount (decimal string of minor units) or returns undefined when malformed. */
export function parseAmount(value: string): bigint | undefined {
  return AMOUNT.test(value) ? BigInt(value) : undefined;
}

/** Percentage part rounded half-up to the minor unit, plus the fixed part, at least the minimum, never above the amount. */
export function serviceFee(amount: bigint, rule: FeeRule): bigint {
  const percentPart = (amount * rule.basisPoints + 5_000n) / 10_000n;
  let fee = percentPart + rule.fixed;
  if (fee < rule.minimum) fee = rule.minimum;
  return fee > amount ? amount : fee;
}
