import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { operatorCheck, serviceCheck } from "./service-credentials.ts";

const tokens = { operator: "operator-token-0123456789abcdefgh", facade: "facade-token-0123456789abcdefghij", dispatcher: "dispatcher-token-0123456789abcdef" };

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "ok";
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
};

describe("serviceCheck", () => {
  const check = serviceCheck(tokens);

  it("names the process whose token was presented", () => {
    expect(check(tokens.operator)).toEqual({ kind: "service", name: "operator" });
    expect(check(tokens.facade)).toEqual({ kind: "service", name: "facade" });
    expect(check(tokens.dispatcher)).toEqual({ kind: "service", name: "dispatcher" });
  });

  it.each([undefined, "", "wrong", tokens.facade.slice(0, -1), `${tokens.facade} `])("refuses %j as unauthorized", (presented) => {
    expect(codeOf(() => check(presented))).toBe("unauthorized");
  });
});

describe("operatorCheck (tRPC, /metrics)", () => {
  it("takes the operator's token and no other process's", () => {
    const check = operatorCheck(tokens.operator);
    expect(check(tokens.operator)).toEqual({ kind: "service", name: "operator" });
    expect(codeOf(() => check(tokens.facade))).toBe("unauthorized");
    expect(codeOf(() => check(tokens.dispatcher))).toBe("unauthorized");
  });
});
