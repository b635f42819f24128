// The contract between the facade's request-log recorder (publisher) and the core's writer
// (consumer): plain NATS, not JetStream. Logs are a debugging aid the issue allows to lose while
// NATS is down, and a stream would add an acknowledged publish per batch for nothing.
import { z } from "zod";

/** REQUEST_LOG_SUBJECT's default; a deployment sharing one NATS with another sets its own on both sides. */
export const REQUEST_LOG_SUBJECT = "paytami.request_logs";
/** The cores' queue group: each batch goes to exactly one core. */
export const REQUEST_LOG_QUEUE = "paytami-core";

const text = (max: number) => z.string().max(max);

/** One request as the facade saw it, bodies already redacted and capped. */
export const requestLogRecord = z.strictObject({
  /** ISO 8601, when the request arrived. */
  at: z.iso.datetime({ offset: false }),
  key_digest: z.string().regex(/^[0-9a-f]{64}$/),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]),
  path: text(2048),
  status: z.number().int().min(100).max(599),
  /** The catalog code of an error answer; null on success. */
  code: text(64).nullable(),
  latency_ms: z.number().int().min(0).max(3_600_000),
  request_id: text(128),
  idempotency_key: text(255).nullable(),
  replayed: z.boolean(),
  client_ip: text(64).nullable(),
  /** JSON text (redacted, capped) or null when the request had no body. */
  request_body: z.string().nullable(),
  response_body: z.string().nullable(),
});

export type RequestLogRecord = z.infer<typeof requestLogRecord>;

/** One NATS message: a batch. */
export const requestLogBatch = z.strictObject({ records: z.array(requestLogRecord).min(1).max(10_000) });

export type RequestLogBatch = z.infer<typeof requestLogBatch>;
