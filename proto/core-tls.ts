// TLS with client certificates on the core's gRPC port, for deployments across machines (DESIGN
// §7), where card numbers, CVCs and credentials would otherwise cross the network in plaintext.
// Every process names its own files with the same variables: CORE_TLS_CERT and CORE_TLS_KEY, its
// certificate and private key, and CORE_TLS_CA, the CA it checks the other side's certificate
// against (PEM files all). None set: plaintext, as on one machine's loopback (`npm start`).
import { readFileSync } from "node:fs";
import { credentials, ServerCredentials, type ChannelCredentials } from "@grpc/grpc-js";

export interface CoreTls {
  /** This process's certificate chain and private key; a client may go without (then it presents none). */
  cert: Buffer | undefined;
  key: Buffer | undefined;
  /**
   * On the core: a client must present a certificate this CA issued (none set: any client may
   * connect, and only its token says who it is). On a client: the CA that issued the core's
   * certificate (none set: the system's roots).
   */
  ca: Buffer | undefined;
  /** Client only (CORE_TLS_SERVER_NAME): the name the core's certificate must carry, when not the host of CORE_GRPC_ADDR. */
  serverName: string | undefined;
}

function readPem(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    // eslint-disable-next-line preserve-caught-error -- a refused setting is one short log line: the cause is its code, in the message
    throw new Error(`${name}=${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** CORE_TLS_* of this process, its files read; null when none is set. Throws (one line) on an incomplete or unreadable set. */
export function coreTlsEnv(source: NodeJS.ProcessEnv, role: "server" | "client"): CoreTls | null {
  const certPath = source.CORE_TLS_CERT || undefined;
  const keyPath = source.CORE_TLS_KEY || undefined;
  const caPath = source.CORE_TLS_CA || undefined;
  if (!certPath && !keyPath && !caPath) return null;
  if (!certPath !== !keyPath) throw new Error(`CORE_TLS_CERT and CORE_TLS_KEY go together: ${certPath ? "CORE_TLS_KEY" : "CORE_TLS_CERT"} is not set`);
  if (role === "server" && !certPath)
    throw new Error("CORE_TLS_CA is set without CORE_TLS_CERT and CORE_TLS_KEY: the core needs a certificate of its own to serve TLS");
  return {
    cert: certPath === undefined ? undefined : readPem("CORE_TLS_CERT", certPath),
    key: keyPath === undefined ? undefined : readPem("CORE_TLS_KEY", keyPath),
    ca: caPath === undefined ? undefined : readPem("CORE_TLS_CA", caPath),
    serverName: role === "client" ? source.CORE_TLS_SERVER_NAME || undefined : undefined,
  };
}

/** The core's listener: plaintext, TLS, or TLS that requires a client certificate from CORE_TLS_CA. */
export function serverCredentials(tls: CoreTls | null): ServerCredentials {
  if (!tls) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(tls.ca ?? null, [{ cert_chain: tls.cert!, private_key: tls.key! }], tls.ca !== undefined);
}

/** A client's channel to the core: plaintext, or TLS checking the core against CORE_TLS_CA and presenting this process's certificate. */
export function channelCredentials(tls: CoreTls | null): ChannelCredentials {
  if (!tls) return credentials.createInsecure();
  return credentials.createSsl(tls.ca ?? null, tls.key ?? null, tls.cert ?? null);
}
