// The one way each process turns its async HTTP handler into a node:http request listener. Node
// does not await a listener: a rejection would go unhandled, which leaves the request hanging and
// ends the process. Here it is logged and answered 500 internal_error, saying nothing of its cause.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** What the listener needs of a logger (pino's Logger has it). */
interface ErrorLog {
  error(fields: { err: unknown }, message: string): void;
}

export function requestListener(log: ErrorLog, handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): RequestListener {
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.error({ err }, "HTTP request failed");
      // Part of an answer is already on the wire: cutting the connection is the only honest end.
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "Internal error." } }));
    });
  };
}
