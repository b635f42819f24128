import { describe, expect, it } from "vitest";
import { logFilterInput, logFiltersFrom, prettyBody, statusTone } from "./request-log-view.ts";

describe("request-log view", () => {
  it("pretty-prints a JSON body and shows a capped one as stored", () => {
    expect(prettyBody('{"a":{"b":1}}')).toBe('{\n  "a": {\n    "b": 1\n  }\n}');
    expect(prettyBody('{"a":"xx…[truncated 10 bytes]')).toBe('{"a":"xx…[truncated 10 bytes]');
  });

  it("reads the address's filters into the list's input, leaving out an unknown status class", () => {
    const params = new URLSearchParams({ status: "4xx", path: " /v1/payments ", key: "key_1", request: "req-1", other: "x" });
    expect(logFilterInput(logFiltersFrom(params))).toEqual({ status_class: "4xx", path: "/v1/payments", api_key_id: "key_1", request_id: "req-1" });
    expect(logFilterInput(logFiltersFrom(new URLSearchParams({ status: "9xx" })))).toEqual({});
  });

  it("gives a status its tone", () => {
    expect([statusTone(201), statusTone(404), statusTone(503)]).toEqual(["success", "warning", "danger"]);
  });
});
