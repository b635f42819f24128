// One codec per contract enum, between the proto enum value and the public wire string ("created",
// "GTQ", "bank_transfer", "test"). The wire string is the value's name without the enum prefix, so
// adding a value to the proto is all it takes; every mapping (core, facade, CLI) goes through here.
import { Currency, MethodType, Mode, PaymentStatus } from "./gen/paytami/v1/enums.ts";
import { LinkAmountType, LinkNotPayableReason } from "./gen/paytami/v1/link.ts";
import { RefundReason, RefundStatus } from "./gen/paytami/v1/refund.ts";

type ValueName<E> = Exclude<keyof E, "UNRECOGNIZED" | `${string}_UNSPECIFIED`>;
type Spelled<N, P extends string, Lower extends boolean> = N extends `${P}${infer Rest}` ? (Lower extends true ? Lowercase<Rest> : Rest) : never;

// Functions, not methods: none uses `this`, so each may be passed on alone (`.map(codec.fromWire)`).
export interface EnumCodec<E extends number, W extends string> {
  /** The wire strings, in proto order. */
  readonly wireNames: readonly W[];
  /** Whether `value` is one of the enum's values (not UNSPECIFIED, UNRECOGNIZED or a number this build does not know). */
  readonly isKnown: (value: number) => value is E;
  /** The wire string of a known value; anything else is a bug in whoever built the message. */
  readonly toWire: (value: number) => W;
  /** The enum value the wire string names, or UNRECOGNIZED (-1) for any other text. */
  readonly fromWire: (text: string) => E;
  /**
   * A request value as text for the check that rejects unknown text: the wire string, or the
   * number itself when the value is not known (so it is rejected in its place in the check order).
   */
  readonly requestText: (value: number) => string;
}

function enumCodec<const E extends Record<string, number>, const P extends string, const Lower extends boolean>(
  values: E,
  prefix: P,
  lower: Lower,
): EnumCodec<E[keyof E], Spelled<ValueName<E>, P, Lower>> {
  type W = Spelled<ValueName<E>, P, Lower>;
  type V = E[keyof E];
  const toWire = new Map<number, W>();
  const fromWire = new Map<string, V>();
  for (const [name, value] of Object.entries(values)) {
    if (value <= 0) continue; // UNSPECIFIED and UNRECOGNIZED have no wire string
    const rest = name.slice(prefix.length);
    const wire = (lower ? rest.toLowerCase() : rest) as W;
    toWire.set(value, wire);
    fromWire.set(wire, value as V);
  }
  const unrecognized = values.UNRECOGNIZED as V;
  return {
    wireNames: [...toWire.values()],
    isKnown: (value): value is V => toWire.has(value),
    toWire: (value) => {
      const wire = toWire.get(value);
      if (wire === undefined) throw new Error(`${prefix}${value} has no wire name`);
      return wire;
    },
    fromWire: (text) => fromWire.get(text) ?? unrecognized,
    requestText: (value) => toWire.get(value) ?? String(value),
  };
}

export const paymentStatusCodec = enumCodec(PaymentStatus, "PAYMENT_STATUS_", true);
export const currencyCodec = enumCodec(Currency, "CURRENCY_", false);
export const methodTypeCodec = enumCodec(MethodType, "METHOD_TYPE_", true);
export const modeCodec = enumCodec(Mode, "MODE_", true);
export const linkAmountTypeCodec = enumCodec(LinkAmountType, "LINK_AMOUNT_TYPE_", true);
export const linkNotPayableReasonCodec = enumCodec(LinkNotPayableReason, "LINK_NOT_PAYABLE_REASON_", true);
export const refundReasonCodec = enumCodec(RefundReason, "REFUND_REASON_", true);
export const refundStatusCodec = enumCodec(RefundStatus, "REFUND_STATUS_", true);
