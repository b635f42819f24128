// Port selection for the dev stack. There is an unavoidable race between probing a port and the
// child binding it; we keep the window small and never hand out the same port twice per process.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

const handedOut = new Set<number>();

function tryListen(port: number, host?: string): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(null));
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

// A port counts as free only when nothing listens on it on any interface (the wildcard bind) nor
// on loopback specifically (a process bound to 127.0.0.1 alone does not always block "::").
async function isPortFree(port: number): Promise<boolean> {
  if (handedOut.has(port)) return false;
  return (await tryListen(port)) !== null && (await tryListen(port, "127.0.0.1")) !== null;
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryListen(0, "127.0.0.1");
    if (port !== null && !handedOut.has(port) && (await isPortFree(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error("could not find a free TCP port on 127.0.0.1");
}

// Use `preferred` when it is free (stable URLs across restarts), otherwise any free port.
export async function preferredOrFreePort(preferred: number | undefined): Promise<number> {
  if (preferred !== undefined && preferred > 0 && (await isPortFree(preferred))) {
    handedOut.add(preferred);
    return preferred;
  }
  return freePort();
}

// The port an earlier run recorded in `portFile` (PostgreSQL, NATS) when it is still free, so
// URLs survive restarts; otherwise any free port.
export function savedOrFreePort(portFile: string): Promise<number> {
  return preferredOrFreePort(existsSync(portFile) ? Number(readFileSync(portFile, "utf8")) : undefined);
}
