import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { HTTP_STATUS } from "../../../facade/src/error-map.ts";
import { ERROR_CODES } from "../../../proto/error-catalog.ts";
import { TRPC_CODE } from "./init.ts";

// The dashboard (tRPC) and a merchant's server (REST) must see the same HTTP status for the same
// catalog code; the facade's HTTP_STATUS is the one tested against the spec (error-map.test.ts).
describe("tRPC code of each catalog code", () => {
  it.each(ERROR_CODES)("%s answers with the REST API's HTTP status", (code) => {
    expect(getHTTPStatusCodeFromError(new TRPCError({ code: TRPC_CODE[code] }))).toBe(HTTP_STATUS[code]);
  });

  it("covers exactly the closed catalog", () => {
    expect(Object.keys(TRPC_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });
});
