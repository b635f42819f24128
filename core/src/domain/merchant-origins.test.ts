import { describe, expect, it } from "vitest";
import { DomainError } from "./errors.ts";
import { readOrigin } from "./merchant-origins.ts";

const refused = (text: string, allowHttp: boolean) => {
  try {
    readOrigin(text, allowHttp);
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return "accepted";
};

// One parser for both lists: embed origins (https) and return origins (http too, for test mode).
describe("readOrigin", () => {
  it("answers the canonical origin", () => {
    expect(readOrigin("https://Shop.Example:443/", false)).toBe("https://shop.example");
    expect(readOrigin("https://shop.example:8443", false)).toBe("https://shop.example:8443");
    expect(readOrigin("http://localhost:3000/", true)).toBe("http://localhost:3000");
    expect(readOrigin("HTTP://LOCALHOST:80", true)).toBe("http://localhost");
  });

  it("takes http only where allowed", () => {
    expect(refused("http://shop.example", false)).toBe("validation_error");
    expect(refused("http://shop.example", true)).toBe("accepted");
  });

  it.each([
    "https://shop.example/thanks",
    "https://shop.example?x=1",
    "https://shop.example#x",
    "https://user@shop.example",
    "https://*.shop.example",
    "ftp://shop.example",
    "shop.example",
    "",
    "https://",
    "javascript:alert(1)",
    "https://shop.example /",
  ])("refuses %j in both lists", (text) => {
    expect(refused(text, false)).toBe("validation_error");
    expect(refused(text, true)).toBe("validation_error");
  });
});
