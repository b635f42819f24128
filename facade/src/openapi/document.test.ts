import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { MONEY_PATTERN } from "../response-shapes.ts";
import { buildDocument } from "./document.ts";

const document = buildDocument("https://api.paytami.com");
type Json = Record<string, any>;

/** Spec §4.1–4.7: each operation's error codes under their statuses, as the spec lists them. */
const SPEC_ERRORS: [method: string, path: string, status: number, code: string][] = [
  ...(
    [
      [401, "unauthorized"],
      [400, "idempotency_key_required"],
      [409, "idempotency_key_reused"],
      [400, "validation_error"],
      [400, "currency_not_supported"],
      [400, "method_not_supported"],
      [400, "amount_below_minimum"],
      [400, "amount_above_maximum"],
    ] as const
  ).map(([status, code]) => ["post", "/v1/payments", status, code] as [string, string, number, string]),
  ["get", "/v1/payments/{id}", 401, "unauthorized"],
  ["get", "/v1/payments/{id}", 404, "unknown_payment"],
  ["get", "/v1/payments", 401, "unauthorized"],
  ["get", "/v1/payments", 400, "validation_error"],
  ["get", "/v1/checkout/{id}", 404, "unknown_payment"],
  ["get", "/v1/checkout/{id}", 409, "payment_not_payable"],
  ["get", "/v1/payments/{id}/checkout_session", 404, "unknown_payment"],
  ["get", "/v1/payment_links/{id}", 404, "unknown_payment_link"],
  ...(
    [
      [404, "unknown_payment_link"],
      [400, "idempotency_key_required"],
      [400, "validation_error"],
      [429, "rate_limited"],
      [409, "payment_link_not_payable"],
      [400, "amount_required"],
      [400, "amount_below_minimum"],
      [400, "amount_above_maximum"],
    ] as const
  ).map(([status, code]) => ["post", "/v1/payment_links/{id}/pay", status, code] as [string, string, number, string]),
];

describe("the OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 meta-schema", async () => {
    const result = await new Validator().validate(structuredClone(document) as Json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes Redocly's recommended rules with no error, and warns only where the route truly has no such answer", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}`)).toEqual([
      // The spec's redirect answers 302, never 2xx.
      "operation-2xx-response at #/paths/~1v1~1checkout~1{id}/get/responses",
      // The document itself reads nothing from the request, so no 4xx applies.
      "operation-4xx-response at #/paths/~1v1~1openapi.json/get/responses",
    ]);
  });

  it.each(SPEC_ERRORS)("%s %s answers %i %s", (method, path, status, code) => {
    const response = (document.paths as Json)[path][method].responses[String(status)];
    expect(response?.["x-error-codes"]).toContain(code);
    const { allOf } = response.content["application/json"].schema;
    expect(allOf[0]).toEqual({ $ref: "#/components/schemas/Error" });
    const codeSchema = allOf[1].properties.error.properties.code;
    expect(codeSchema.enum).toContain(code);
    expect(response.description).toContain(`\`${code}\``);
  });

  it("puts bearer security on merchant routes and none on the customer's", () => {
    const security = (method: string, path: string) => (document.paths as Json)[path][method].security;
    expect(security("post", "/v1/payments")).toEqual([{ bearerAuth: [] }]);
    for (const [method, path] of [
      ["get", "/v1/checkout/{id}"],
      ["get", "/v1/payments/{id}/checkout_session"],
      ["get", "/v1/payment_links/{id}"],
      ["post", "/v1/payment_links/{id}/pay"],
    ]) {
      expect(security(method!, path!)).toEqual([]);
    }
  });

  it("requires Idempotency-Key on creates and declares Request-Id, Idempotent-Replayed and Retry-After", () => {
    const pay = (document.paths as Json)["/v1/payment_links/{id}/pay"].post;
    expect(pay.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    expect(pay.responses["201"].headers["Idempotent-Replayed"]).toBeDefined();
    expect(pay.responses["429"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(pay.responses["503"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/RetryAfterOptional" });
    expect(document.components?.headers?.RetryAfterOptional).toMatchObject({ required: false });
    expect(document.components?.parameters?.IdempotencyKey).toMatchObject({ in: "header", required: true });
    for (const response of Object.values(pay.responses as Json)) expect(response.headers["Request-Id"]).toBeDefined();
  });

  it("writes money as a string with its pattern, in responses and request bodies", () => {
    const schemas = document.components!.schemas as Json;
    expect(schemas.Money).toMatchObject({ type: "string", pattern: MONEY_PATTERN });
    expect(schemas.Payment.properties.amount).toEqual({ $ref: "#/components/schemas/Money" });
    expect(schemas.CreatePaymentRequest.properties.amount).toMatchObject({ type: "string", pattern: MONEY_PATTERN });
    expect(schemas.CreatePaymentRequest.required).toEqual(["amount", "currency", "method_type", "success_url", "cancel_url"]);
  });

  it("carries the getting-started steps in English and Spanish", () => {
    expect(document.info.description).toContain("# Getting started");
    expect(document.info.description).toContain("# Primeros pasos");
    expect(document.info.description).toContain("Service-Signature");
  });
});
