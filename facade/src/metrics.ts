import { Counter, Registry } from "prom-client";

// The facade's own counters, served on METRICS_PORT when set (never on the public port).
export const registry = new Registry();

export const requestLogsPublished = new Counter({
  name: "paytami_facade_request_logs_published_total",
  help: "Request-log records handed to NATS.",
  registers: [registry],
});

export const requestLogThreadRestarts = new Counter({
  name: "paytami_facade_request_log_thread_restarts_total",
  help: "Times the request-log publisher thread ended unasked (out of its heap, say) and a new one was started; what it held was lost.",
  registers: [registry],
});

export const requestLogsDropped = new Counter({
  name: "paytami_facade_request_logs_dropped_total",
  help: "Request-log records dropped: buffer_full (REQUEST_LOG_BUFFER reached), nats_down, publish_failed, too_large, unrecordable.",
  labelNames: ["reason"] as const,
  registers: [registry],
});
