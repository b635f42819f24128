// The response validator (test/support/openapi-conformance.ts) is on for every suite, and it catches
// a wrong answer: a loopback server that answers like the facade, right and then wrong.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "./support/http.ts";
import { takeViolations } from "./support/openapi-conformance.ts";
import config from "../vitest.config.ts";

const PAYMENT = {
  id: "pay_0123456789abcdef01234567",
  status: "created",
  currency: "GTQ",
  amount: "15000",
  service_fee: "725",
  net_amount: "14275",
  checkout_url: "http://127.0.0.1/v1/checkout/pay_0123456789abcdef01234567",
  created_at: "2026-11-21T10:00:00.123Z",
};

/** path → [status, headers, body] the fake facade answers with. */
const ANSWERS: Record<string, [number, Record<string, string>, unknown]> = {
  "/v1/payments/pay_0123456789abcdef01234567": [200, { "request-id": "r1" }, PAYMENT],
  "/v1/payments/pay_amount_as_number": [200, { "request-id": "r2" }, { ...PAYMENT, amount: 15000 }],
  "/v1/payments/pay_without_request_id": [200, {}, PAYMENT],
  "/v1/payments/pay_undeclared_status": [418, { "request-id": "r3" }, { error: { code: "validation_error", message: "teapot" } }],
  "/v1/payments/pay_code_not_declared_here": [404, { "request-id": "r4" }, { error: { code: "amount_required", message: "not on this route" } }],
  "/v1/payments/pay_extra_field": [200, { "request-id": "r5" }, { ...PAYMENT, fee_cents: 7 }],
};

let server: Server;
let http: HttpClient;
beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, headers, body] = ANSWERS[req.url ?? ""] ?? [404, { "request-id": "r0" }, { error: { code: "validation_error", message: "No route." } }];
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  http = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => server.close());

describe("the suites' response validator", () => {
  it("is on for every test file: a setup file of the one vitest config, and this file's fetch is wrapped", () => {
    expect(config.test?.setupFiles).toContain("test/support/openapi-conformance-setup.ts");
    expect(config.test?.include).toContain("test/**/*.test.ts");
    expect(globalThis.fetch.toString()).toContain("checkConformance");
  });

  it("passes an answer the document describes", async () => {
    await http.get("/v1/payments/pay_0123456789abcdef01234567");
    await fetch(`${http.baseUrl}/v1/payments/pay_0123456789abcdef01234567`);
    await http.get("/v1/no_such_route");
    expect(takeViolations()).toEqual([]);
  });

  it("reads a Request handed to fetch without consuming its body", async () => {
    const res = await fetch(new Request(`${http.baseUrl}/v1/payments`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
    expect(res.status).toBe(404);
    const violations = takeViolations();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain("POST /v1/payments (createPayment): status 404 is not in the document");
  });

  it.each([
    ["/v1/payments/pay_amount_as_number", "/amount must be string"],
    ["/v1/payments/pay_without_request_id", "header Request-Id is required"],
    ["/v1/payments/pay_undeclared_status", "status 418 is not in the document"],
    ["/v1/payments/pay_code_not_declared_here", "/error/code must be equal to one of the allowed values"],
    ["/v1/payments/pay_extra_field", "must NOT have additional properties"],
  ])("fails a test that receives %s, through the harness client and through fetch", async (path, problem) => {
    await http.get(path);
    const fromClient = takeViolations();
    expect(fromClient).toHaveLength(1);
    expect(fromClient[0]).toContain(problem);
    expect(fromClient[0]).toContain("getPayment");
    await fetch(`${http.baseUrl}${path}`);
    expect(takeViolations()).toEqual(fromClient);
    // Also when the caller hands fetch a Request (as generated clients do), whose body is read once.
    await fetch(new Request(`${http.baseUrl}${path}`, { method: "GET" }));
    expect(takeViolations()).toEqual(fromClient);
  });
});
