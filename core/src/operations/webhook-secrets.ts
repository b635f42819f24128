import { defineOperation } from "../domain/operation.ts";
import { revealEndpointSecret } from "../domain/webhook-endpoint-secret.ts";
import { anId } from "./inputs.ts";

/** The dashboard's "show the secret" of an endpoint (developers and up); audited, as every session change is. */
export const webhookSecrets = {
  reveal: defineOperation({
    name: "reveal_endpoint_secret",
    callers: ["session"],
    role: "developer",
    input: anId,
    transaction: "transaction",
    run: revealEndpointSecret,
  }),
};
