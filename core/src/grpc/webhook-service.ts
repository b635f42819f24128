import type { WebhookServiceServer } from "../../../proto/gen/paytami/v1/webhook.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { fail } from "../domain/errors.ts";
import { unary, type CallContext } from "./unary.ts";

export function webhookService(deps: CoreDeps): WebhookServiceServer {
  const handle = <Req, Res>(method: string, fn: (request: Req, context: CallContext) => Promise<Res>) => unary<Req, Res>(deps, method, fn);
  const notYet = (method: string) => handle(method, async () => fail("internal_error", `${method} is not implemented yet.`));
  return {
    createEndpoint: notYet("CreateEndpoint"),
    listEndpoints: notYet("ListEndpoints"),
    updateEndpoint: notYet("UpdateEndpoint"),
    rotateSecret: notYet("RotateSecret"),
    deleteEndpoint: notYet("DeleteEndpoint"),
    listEvents: notYet("ListEvents"),
    getEvent: notYet("GetEvent"),
  };
}
