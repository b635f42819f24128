// The suites' response validator: every answer a test receives from a facade's /v1 routes (status,
// the headers the document declares, the JSON body) is checked against the OpenAPI document the
// facade serves (built here from the same declarations, facade/src/openapi). http.ts and the fetch
// wrapper of openapi-conformance-setup.ts report each answer; a test that received a non-conforming
// one fails (the setup file's afterEach), so the document cannot drift from what the code answers.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { z } from "zod";
import { buildDocument, type OpenApiDocument } from "../../facade/src/openapi/document.ts";
import { errorShape } from "../../facade/src/response-shapes.ts";

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: string;
}

type Json = Record<string, any>;

interface Validator {
  document: OpenApiDocument;
  routes: { method: string; pattern: RegExp; path: string; params: number }[];
  schema(pointer: string): ValidateFunction;
  /** Any error body of the catalog. */
  anyError: ValidateFunction;
}

let validator: Validator | undefined;

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

function load(): Validator {
  const document = buildDocument("http://127.0.0.1");
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, "openapi.json");
  const compiled = new Map<string, ValidateFunction>();
  const routes = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as Json).map((method) => ({
      method: method.toUpperCase(),
      path,
      // The router ignores one trailing slash (Koa's non-strict routing).
      pattern: new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
      params: (path.match(/\{/g) ?? []).length,
    })),
  );
  // Literal paths before templated ones, as the router's registration order makes them win.
  routes.sort((a, b) => a.params - b.params);
  return {
    document,
    routes,
    anyError: ajv.compile(z.toJSONSchema(errorShape, { target: "draft-2020-12" })),
    schema(pointer) {
      let fn = compiled.get(pointer);
      if (!fn) compiled.set(pointer, (fn = ajv.compile({ $ref: `openapi.json#${pointer}` })));
      return fn;
    },
  };
}

function resolve(document: Json, node: Json): Json {
  if (typeof node.$ref !== "string") return node;
  return node.$ref
    .slice(2)
    .split("/")
    .reduce((at: Json, key: string) => at[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
}

const errorsText = (fn: ValidateFunction) => (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; ");

/** What is wrong with `res` by the document; [] when it conforms or is not a /v1 answer. */
export function conformanceProblems(res: ObservedResponse): string[] {
  const path = new URL(res.url).pathname;
  if (!path.startsWith("/v1/") || res.method === "HEAD" || res.method === "OPTIONS") return [];
  const v = (validator ??= load());
  const document = v.document as Json;
  const problems: string[] = [];
  const samePath = v.routes.filter((r) => r.pattern.test(path));
  const route = samePath.find((r) => r.method === res.method);
  const json = parseJson(res);

  if (!route) {
    // Not an operation: the facade's unknown route (404) or wrong method (405), an Error body.
    const expected = samePath.length > 0 ? 405 : 404;
    if (res.status !== expected) problems.push(`${res.status} for a route the document does not have (expected ${expected})`);
    if (!v.anyError(json)) problems.push(`body ${errorsText(v.anyError)}`);
    return problems.map((p) => `${res.method} ${path}: ${p}`);
  }

  const operation = document.paths[route.path][route.method.toLowerCase()];
  const response = operation.responses[String(res.status)];
  if (!response) return [`${res.method} ${path} (${operation.operationId}): status ${res.status} is not in the document (body ${res.body.slice(0, 200)})`];
  const base = `/paths/${escapePointer(route.path)}/${route.method.toLowerCase()}/responses/${res.status}`;
  for (const [name, ref] of Object.entries((response.headers ?? {}) as Json)) {
    const header = resolve(document, ref);
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is required`);
      continue;
    }
    // A header is a $ref to components.headers or written in place.
    const pointer = typeof ref.$ref === "string" ? ref.$ref.slice(1) : `${base}/headers/${escapePointer(name)}`;
    const fn = v.schema(`${pointer}/schema`);
    if (!fn(value)) problems.push(`header ${name}: ${errorsText(fn)}`);
  }
  const media = response.content?.["application/json"];
  if (media) {
    if (!/^application\/json\b/.test(res.headers["content-type"] ?? "")) problems.push(`Content-Type ${res.headers["content-type"]} is not application/json`);
    validateBody(v, `${base}/content/application~1json/schema`, json, problems);
  }
  return problems.map((p) => `${res.method} ${path} → ${res.status} (${operation.operationId}): ${p}`);
}

function parseJson(res: ObservedResponse): unknown {
  try {
    return res.body.length > 0 ? JSON.parse(res.body) : undefined;
  } catch {
    return undefined;
  }
}

function validateBody(v: Validator, pointer: string, json: unknown, problems: string[]): void {
  const fn = v.schema(pointer);
  if (!fn(json)) problems.push(`body ${errorsText(fn)}`);
}

/** Answers that did not conform, since the last take (the setup file fails the test holding any). */
const violations: string[] = [];

export function checkConformance(res: ObservedResponse): void {
  violations.push(...conformanceProblems(res));
}

export function takeViolations(): string[] {
  return violations.splice(0);
}
