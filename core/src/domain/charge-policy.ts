import { CURRENCIES, METHOD_TYPES, type CoreConfig, type Currency, type MethodType } from "../config.ts";
import { fail } from "./errors.ts";
import { serviceFee } from "./money.ts";

/** What a merchant accepts, as stored on its row. */
export interface MerchantPolicy {
  currencies: readonly string[];
  methods: readonly string[];
}

/** A merchant that accepts everything Paytami offers (the default for new merchants). */
export const ACCEPTS_EVERYTHING: MerchantPolicy = { currencies: CURRENCIES, methods: METHOD_TYPES };

export interface Charge {
  currency: Currency;
  methodType: MethodType;
  amount: bigint;
  serviceFee: bigint;
  netAmount: bigint;
}

/**
 * The financial rules every charge obeys, in the order DESIGN §4 fixes:
 * currency enabled, method available, amount within limits; then the fee.
 * Payment links pass narrower bounds of their own.
 */
export function priceCharge(
  config: CoreConfig,
  merchant: MerchantPolicy,
  input: { currency: string; methodType: MethodType; amount: bigint; bounds?: { min: bigint; max: bigint } },
): Charge {
  const policy = config.currencies[input.currency as Currency];
  if (!policy || !merchant.currencies.includes(input.currency)) {
    fail("currency_not_supported", `Currency ${input.currency} is not enabled for this merchant.`);
  }
  const currency = input.currency as Currency;
  if (!policy.methods.includes(input.methodType) || !merchant.methods.includes(input.methodType)) {
    fail("method_not_supported", `Payment method ${input.methodType} is not available for ${currency}.`);
  }
  const { min, max } = input.bounds ?? policy.limits;
  if (input.amount < min) fail("amount_below_minimum", `amount must be at least ${min} (minor units of ${currency}).`);
  if (input.amount > max) fail("amount_above_maximum", `amount must be at most ${max} (minor units of ${currency}).`);
  const fee = serviceFee(input.amount, policy.fees[input.methodType]!);
  return { currency, methodType: input.methodType, amount: input.amount, serviceFee: fee, netAmount: input.amount - fee };
}
