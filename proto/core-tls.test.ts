import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coreTlsEnv } from "./core-tls.ts";

// Only the reading of CORE_TLS_* here; test/tls.test.ts runs the processes over TLS with real certificates.
const dir = mkdtempSync(join(tmpdir(), "paytami-core-tls-"));
const file = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, `-----BEGIN ${name}-----\n`);
  return path;
};
const cert = file("cert.pem");
const key = file("key.pem");
const ca = file("ca.pem");

describe("CORE_TLS_*", () => {
  it("none set: plaintext, on both sides", () => {
    expect(coreTlsEnv({}, "server")).toBeNull();
    expect(coreTlsEnv({ CORE_TLS_CERT: "" }, "client")).toBeNull();
  });

  it("reads the files a process names", () => {
    const tls = coreTlsEnv({ CORE_TLS_CERT: cert, CORE_TLS_KEY: key, CORE_TLS_CA: ca, CORE_TLS_SERVER_NAME: "core.internal" }, "client");
    expect(tls?.cert?.toString()).toContain("cert.pem");
    expect(tls?.key?.toString()).toContain("key.pem");
    expect(tls?.ca?.toString()).toContain("ca.pem");
    expect(tls?.serverName).toBe("core.internal");
  });

  it("a client may present no certificate (the core then decides) and trust the system's roots", () => {
    expect(coreTlsEnv({ CORE_TLS_CA: ca }, "client")).toMatchObject({ cert: undefined, key: undefined });
    expect(coreTlsEnv({ CORE_TLS_CERT: cert, CORE_TLS_KEY: key }, "client")).toMatchObject({ ca: undefined });
  });

  it("the core needs its own certificate; without a CA it asks for no client certificate", () => {
    expect(() => coreTlsEnv({ CORE_TLS_CA: ca }, "server")).toThrow("CORE_TLS_CA is set without CORE_TLS_CERT and CORE_TLS_KEY");
    expect(coreTlsEnv({ CORE_TLS_CERT: cert, CORE_TLS_KEY: key }, "server")).toMatchObject({ ca: undefined, serverName: undefined });
  });

  it("a certificate without its key, or a file that cannot be read, is refused in one line naming the variable", () => {
    expect(() => coreTlsEnv({ CORE_TLS_CERT: cert }, "client")).toThrow("CORE_TLS_CERT and CORE_TLS_KEY go together: CORE_TLS_KEY is not set");
    expect(() => coreTlsEnv({ CORE_TLS_KEY: key }, "server")).toThrow("CORE_TLS_CERT and CORE_TLS_KEY go together: CORE_TLS_CERT is not set");
    expect(() => coreTlsEnv({ CORE_TLS_CERT: cert, CORE_TLS_KEY: key, CORE_TLS_CA: join(dir, "missing.pem") }, "server")).toThrow(
      `CORE_TLS_CA=${join(dir, "missing.pem")} cannot be read (ENOENT)`,
    );
  });
});
