// The CLI's connection to the core: CORE_GRPC_ADDR and PAYTAMI_INTERNAL_TOKEN (the operator's),
// defaulting from $PAYTAMI_HOME/dev.json; CORE_TLS_* when the core serves TLS (proto/core-tls.ts).
// Loaded only when a command runs: the gRPC client is most of what the CLI would otherwise load.
import { findPaytamiHome, readDevJson } from "../devstack/dev-json.ts";
import { CoreClient } from "../../../proto/core-client.ts";
import { coreTlsEnv } from "../../../proto/core-tls.ts";

/** Deadline of each core call. */
const TIMEOUT_MS = 15_000;

export function connect(): CoreClient {
  const dev = readDevJson(findPaytamiHome());
  const address = process.env.CORE_GRPC_ADDR || dev?.core_grpc || "127.0.0.1:50051";
  const token = process.env.PAYTAMI_INTERNAL_TOKEN || dev?.internal_token;
  return new CoreClient({ address, internalToken: token, tls: coreTlsEnv(process.env, "client"), timeoutMs: TIMEOUT_MS });
}

/**
 * The core's HTTP address for what the CLI reads over the core's operator tRPC (`logs tail`):
 * CORE_HTTP_URL, else dev.json's core_http, else CORE_GRPC_ADDR's host on CORE_HTTP_PORT (4001).
 */
export function coreHttp(): { url: string; token: string | undefined } {
  const dev = readDevJson(findPaytamiHome());
  const grpc = process.env.CORE_GRPC_ADDR || dev?.core_grpc || "127.0.0.1:50051";
  const host = grpc.slice(0, grpc.lastIndexOf(":")).replace(/^\[|\]$/g, "") || "127.0.0.1";
  const derived = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.CORE_HTTP_PORT || 4001}`;
  const url = (process.env.CORE_HTTP_URL || (process.env.CORE_GRPC_ADDR ? derived : dev?.core_http) || derived).replace(/\/+$/, "");
  return { url, token: process.env.PAYTAMI_INTERNAL_TOKEN || dev?.internal_token };
}
