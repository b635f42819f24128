import type { LinkServiceServer } from "../../../proto/gen/paytami/v1/link.ts";
import type { CoreDeps } from "../domain/deps.ts";
import { unary } from "./unary.ts";

const notYet = async (): Promise<never> => {
  throw new Error("LinkService is not implemented yet");
};

export function linkService(deps: CoreDeps): LinkServiceServer {
  const handle = <Req, Res>(method: string, fn: Parameters<typeof unary<Req, Res>>[2]) => unary<Req, Res>(deps, method, fn);
  return {
    createLink: handle("CreateLink", notYet),
    listLinks: handle("ListLinks", notYet),
    getLink: handle("GetLink", notYet),
    deactivateLink: handle("DeactivateLink", notYet),
    getPublicLink: handle("GetPublicLink", notYet),
    payLink: handle("PayLink", notYet),
  };
}
