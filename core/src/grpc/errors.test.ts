import { status } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { toCoreError } from "../../../proto/core-client.ts";
import { ERROR_CODE_METADATA_KEY, ERROR_CODES } from "../../../proto/error-catalog.ts";
import { DomainError } from "../domain/errors.ts";
import { GRPC_STATUS, toServiceError } from "./errors.ts";
import type { ServiceError } from "@grpc/grpc-js";

// What the core answers and what the one gRPC client (facade, CLI, internal services) reads back.
const throughTheClient = (error: unknown) => toCoreError(toServiceError(error) as ServiceError, "core");

describe("gRPC status of each catalog code", () => {
  it.each(ERROR_CODES)("%s: its own status, and the client reads the same code and message back", (code) => {
    const answer = toServiceError(new DomainError(code, `because ${code}`));
    expect(answer.code).toBe(GRPC_STATUS[code]);
    expect(answer.code).not.toBe(status.OK);
    expect(answer.metadata?.get(ERROR_CODE_METADATA_KEY)).toEqual([code]);
    expect(throughTheClient(new DomainError(code, `because ${code}`))).toMatchObject({ code, message: `because ${code}`, fromCore: true });
  });

  it("covers exactly the closed catalog", () => {
    expect(Object.keys(GRPC_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("anything but a DomainError is an internal_error that says nothing of its cause", () => {
    const answer = toServiceError(new Error("password=hunter2 at db.internal:5432"));
    expect(answer).toMatchObject({ code: status.INTERNAL, details: "Internal error." });
    expect(throughTheClient(new Error("password=hunter2"))).toMatchObject({ code: "internal_error", message: "Internal error.", fromCore: true });
  });
});
