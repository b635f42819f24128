// Vitest setup file (vitest.config.ts `setupFiles`), so it is on for every suite: a test fails when a
// /v1 answer it received does not conform to the OpenAPI document (openapi-conformance.ts). The
// harness's HTTP client (http.ts) reports its answers; global fetch is wrapped here for the others.
import { afterEach } from "vitest";
import { checkConformance, takeViolations } from "./openapi-conformance.ts";

const originalFetch = globalThis.fetch;

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  // Read before the call: a Request's body can be used only once.
  const url = input instanceof Request ? input.url : String(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const response = await originalFetch(input, init);
  const { hostname, pathname } = new URL(url);
  // The stacks' facades listen on loopback; anything else is not ours to judge.
  if ((hostname === "127.0.0.1" || hostname === "localhost") && pathname.startsWith("/v1/")) {
    checkConformance({
      method,
      url,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.clone().text(),
    });
  }
  return response;
};

afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) {
    throw new Error(`${violations.length} /v1 answer(s) do not conform to the OpenAPI document (facade/src/openapi):\n${violations.join("\n")}`);
  }
});
