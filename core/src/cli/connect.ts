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
