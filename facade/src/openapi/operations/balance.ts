import { balanceShape } from "../../payout-response-shapes.ts";
import { operation } from "../operation.ts";

export const getBalance = operation({
  operationId: "getBalance",
  method: "get",
  path: "/v1/balance",
  tag: "Balance",
  summary: "Retrieve the balance",
  description:
    "Pending, available and in-transit amounts per currency for the key's merchant and mode, summed from the ledger. Pending becomes available as payments settle; payouts move available to in transit, then to the bank.",
  auth: "merchant",
  response: { status: 200, description: "The balances.", body: balanceShape },
  errors: [],
});
