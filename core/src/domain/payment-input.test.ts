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
