import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { parsePaymentInput } from "./payment-input.ts";

const valid = {
  amount: "10000",
  currency: "GTQ",
  method_type: "card",
  success_url: "https://shop.example.com/thanks",
  cancel_url: "https://shop.example.com/cart",
  description: "Pedido 1",
  customer: { email: "ana@example.com", name: "Ana" },
};

function errorOf(input: unknown): DomainError {
  try {
    parsePaymentInput("test", input);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("parsed without an error");
}

// Whoever calls the core (REST facade or an internal gRPC caller) gets the same error.
describe("parsePaymentInput: NUL in a text field", () => {
  it.each([
    ["description", { ...valid, description: "Pedido\u00001" }],
    ["success_url", { ...valid, success_url: "https://shop.example.com/\u0000" }],
    ["cancel_url", { ...valid, cancel_url: "https://shop.example.com/cart\u0000" }],
    ["customer.name", { ...valid, customer: { name: "\u0000" } }],
    ["customer.email", { ...valid, customer: { email: "ana\u0000@example.com" } }],
  ])("%s", (field, input) => {
    const error = errorOf(input);
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(new RegExp(`^${field.replace(".", "\\.")} `));
    if (field !== "customer.email") expect(error.message).toContain("NUL (U+0000)");
  });

  it("accepts the same fields without it", () => {
    expect(parsePaymentInput("test", valid)).toEqual(valid);
  });
});

// Bidi controls reorder what a customer reads (DESIGN "Validation"): refused in text people read, never stripped.
describe("parsePaymentInput: bidi controls in text people read", () => {
  const controls = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"];
  it.each(controls.map((c) => [`U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`, c]))(
    "%s in description or customer.name",
    (_name, control) => {
      for (const [field, input] of [
        ["description", { ...valid, description: `Pedido ${control}1` }],
        ["customer.name", { ...valid, customer: { name: `Ana${control}` } }],
      ] as const) {
        const error = errorOf(input);
        expect(error.code).toBe("validation_error");
        expect(error.message).toBe(`${field} must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C).`);
      }
    },
  );

  it("accepts right-to-left letters, and leaves URLs to the URL rules", () => {
    const rtl = { ...valid, description: "طلب ٤٢ · הזמנה", customer: { name: "سارة" } };
    expect(parsePaymentInput("test", rtl)).toEqual(rtl);
  });
});
