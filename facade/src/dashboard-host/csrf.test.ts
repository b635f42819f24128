import { describe, expect, it } from "vitest";
import { csrfRefusal } from "./csrf.ts";

const ORIGIN = "https://pay.example.gt";
const request = (method: string, headers: Record<string, string>) => ({
  method,
  get: (name: string) => headers[name.toLowerCase()] ?? "",
});

describe("dashboard CSRF rule (DESIGN §5)", () => {
  it("accepts a same-origin JSON POST, parameters in the content type allowed", () => {
    expect(csrfRefusal(request("POST", { origin: ORIGIN, "content-type": "application/json" }), ORIGIN)).toBeUndefined();
    expect(csrfRefusal(request("POST", { origin: ORIGIN, "content-type": "Application/JSON; charset=utf-8" }), ORIGIN)).toBeUndefined();
  });

  it.each([
    ["a foreign Origin", { origin: "https://evil.example", "content-type": "application/json" }],
    ["no Origin", { "content-type": "application/json" }],
    ["the same host on http", { origin: "http://pay.example.gt", "content-type": "application/json" }],
    ["text/plain", { origin: ORIGIN, "content-type": "text/plain" }],
    ["a form", { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }],
    ["no content type", { origin: ORIGIN }],
  ])("refuses a POST with %s", (_what, headers) => {
    expect(csrfRefusal(request("POST", headers), ORIGIN)).toBeTypeOf("string");
  });

  it("lets same-origin GETs through (browsers send no Origin on them) and refuses cross-site ones", () => {
    expect(csrfRefusal(request("GET", {}), ORIGIN)).toBeUndefined();
    expect(csrfRefusal(request("GET", { "sec-fetch-site": "same-origin" }), ORIGIN)).toBeUndefined();
    expect(csrfRefusal(request("GET", { origin: ORIGIN }), ORIGIN)).toBeUndefined();
    expect(csrfRefusal(request("GET", { "sec-fetch-site": "cross-site" }), ORIGIN)).toBeTypeOf("string");
    expect(csrfRefusal(request("GET", { "sec-fetch-site": "same-site" }), ORIGIN)).toBeTypeOf("string");
    expect(csrfRefusal(request("GET", { origin: "https://evil.example" }), ORIGIN)).toBeTypeOf("string");
  });

  it("refuses every other method", () => {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      expect(csrfRefusal(request(method, { origin: ORIGIN, "content-type": "application/json" }), ORIGIN)).toBeTypeOf("string");
    }
  });
});
