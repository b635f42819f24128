import { z } from "zod";
import { defineOperation } from "../domain/operation.ts";
import { getRequestLog, listRequestLogs, tailRequestLogs } from "../domain/request-logs.ts";
import { aNumber, anId } from "./inputs.ts";

/**
 * The merchants' request logs (core/README.md "Request logs"): developers and up of the merchant
 * read them in the dashboard; the operator reads the same acting for a merchant, and tails them
 * (`paytami logs tail`).
 */
export const requestLogs = {
  list: defineOperation({
    name: "list_request_logs",
    callers: ["operator", "session"],
    role: "developer",
    input: z.strictObject({
      limit: aNumber.optional(),
      starting_after: z.string().optional(),
      status_class: z.string().optional(),
      path: z.string().optional(),
      api_key_id: z.string().optional(),
      request_id: z.string().optional(),
    }),
    transaction: "read",
    run: listRequestLogs,
  }),
  get: defineOperation({
    name: "get_request_log",
    callers: ["operator", "session"],
    role: "developer",
    input: anId,
    transaction: "read",
    run: getRequestLog,
  }),
  tail: defineOperation({
    name: "tail_request_logs",
    callers: ["operator"],
    input: z.strictObject({ after: z.string().optional(), status_class: z.string().optional(), limit: aNumber.optional() }),
    transaction: "read",
    run: tailRequestLogs,
  }),
};
