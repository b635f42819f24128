import { z } from "zod";
import { requestLogs } from "../../operations/request-logs.ts";
import { PAGE } from "../inputs.ts";
import { asIs, sessionQuery } from "../operation-procedure.ts";

/** The request-log list's filters as a procedure's input names them (domain/request-logs.ts reads their meaning). */
export const REQUEST_LOG_FILTERS = {
  status_class: z.enum(["2xx", "4xx", "5xx"]).optional(),
  path: z.string().max(2048).optional(),
  api_key_id: z.string().max(64).optional(),
  request_id: z.string().max(128).optional(),
};

/** dashboard.requestLogs.list / .get (developers and up): the session's merchant and mode only. */
export const requestLogsRouter = {
  list: sessionQuery(requestLogs.list, z.strictObject({ ...REQUEST_LOG_FILTERS, ...PAGE }), asIs, asIs),
  get: sessionQuery(requestLogs.get, z.strictObject({ id: z.string() }), (input) => input.id, asIs),
};
