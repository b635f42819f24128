// Throw-away X.509 material for the TLS suites, made at test time with the openssl command line
// (node:crypto makes keys but cannot sign certificates): a CA, and certificates it issues to the
// core (a server certificate for loopback) and to each client process. P-256 keys: instant to make.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { findExecutable } from "../../core/src/devstack/system-packages.ts";

export interface CertificateAuthority {
  name: string;
  dir: string;
  /** PEM paths. */
  cert: string;
  key: string;
}

/** A certificate and its private key (PEM paths), and the CA that issued it. */
export interface Issued {
  cert: string;
  key: string;
  ca: string;
}

function openssl(args: string[], cwd: string): void {
  const binary = findExecutable("openssl");
  if (!binary) throw new Error("openssl not found: the TLS tests make their certificates with it (Debian: apt-get install openssl; .ci/run installs it)");
  try {
    execFileSync(binary, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`, { cause: error });
  }
}

const KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A new self-signed CA in `dir/<name>/`, valid for a day. */
export function createCa(dir: string, name: string): CertificateAuthority {
  const own = path.join(dir, name);
  fs.mkdirSync(own, { recursive: true });
  openssl(
    [
      "req",
      "-x509",
      ...KEY,
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
      "-days",
      "1",
      "-subj",
      `/CN=${name}`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ],
    own,
  );
  return { name, dir: own, cert: path.join(own, "ca.crt"), key: path.join(own, "ca.key") };
}

/**
 * A certificate for `subject` signed by `ca`: a server's names 127.0.0.1 and localhost (every
 * core of a test stack listens on loopback), a client's only its subject.
 */
export function issue(ca: CertificateAuthority, subject: string, role: "server" | "client"): Issued {
  const base = path.join(ca.dir, subject);
  const extensions = [
    "basicConstraints=CA:FALSE",
    "keyUsage=critical,digitalSignature",
    `extendedKeyUsage=${role === "server" ? "serverAuth" : "clientAuth"}`,
    `subjectAltName=${role === "server" ? "IP:127.0.0.1,DNS:localhost" : `DNS:${subject}`}`,
  ];
  fs.writeFileSync(`${base}.ext`, `${extensions.join("\n")}\n`);
  openssl(["req", "-new", ...KEY, "-keyout", `${base}.key`, "-out", `${base}.csr`, "-subj", `/CN=${subject}`], ca.dir);
  openssl(
    [
      "x509",
      "-req",
      "-in",
      `${base}.csr`,
      "-CA",
      ca.cert,
      "-CAkey",
      ca.key,
      "-set_serial",
      `0x${randomBytes(8).toString("hex")}`,
      "-days",
      "1",
      "-extfile",
      `${base}.ext`,
      "-out",
      `${base}.crt`,
    ],
    ca.dir,
  );
  return { cert: `${base}.crt`, key: `${base}.key`, ca: ca.cert };
}

/** CORE_TLS_* for a process holding `issued`. */
export function tlsEnv(issued: Issued): Record<string, string> {
  return { CORE_TLS_CERT: issued.cert, CORE_TLS_KEY: issued.key, CORE_TLS_CA: issued.ca };
}
