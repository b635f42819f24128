// The endpoint URL check in both modes: every endpoint must reach a public address (cloud metadata,
// private and link-local ranges refused in whatever form the URL parser accepts), loopback only in
// test mode with WEBHOOK_ALLOW_LOOPBACK. IP literals and `localhost` need no network.
import { describe, expect, it } from "vitest";
import type { Mode } from "../config.ts";
import { DomainError } from "./errors.ts";
import { checkEndpointUrl } from "./webhook-endpoints.ts";

async function refusal(mode: Mode, url: string, allowLoopback: boolean): Promise<DomainError> {
  try {
    await checkEndpointUrl(mode, url, allowLoopback);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`${url} was accepted in ${mode} mode`);
}

// Each names cloud metadata, a private host or a name for loopback, written as the URL parser allows.
const NEVER = [
  "http://169.254.169.254/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[::169.254.169.254]/",
  "http://2852039166/", // decimal
  "http://0251.0376.0251.0376/", // octal
  "http://0xa9.0xfe.0xa9.0xfe/", // hexadecimal
  "http://0xa9fea9fe/",
  "http://169.254.43518/",
  "http://[2002:a9fe:a9fe::1]/", // 6to4 of 169.254.169.254
  "http://[fe80::1]/",
  "http://10.0.0.5/hook",
  "http://0x0a000005/hook",
  "http://172.16.3.4/hook",
  "http://192.168.1.10/hook",
  "http://100.64.0.1/hook",
  "http://[fd00::1]/hook",
  "http://0.0.0.0:8080/hook",
  "http://[::ffff:127.0.0.1]:8080/hook",
];
const LOOPBACK = [
  "http://127.0.0.1:8080/hook",
  "http://127.1:8080/hook",
  "http://0x7f000001:8080/hook",
  "http://[::1]:8080/hook",
  "http://localhost:8080/hook",
  "http://LOCALHOST:8080/hook",
];

describe("checkEndpointUrl in test mode without WEBHOOK_ALLOW_LOOPBACK", () => {
  it.each([...NEVER, ...LOOPBACK])("%s is refused: validation_error naming the address", async (url) => {
    const error = await refusal("test", url, false);
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^url must reach a public address: .*is not a public address\./);
  });

  it("a loopback refusal says how local development gets it", async () => {
    expect((await refusal("test", "http://127.0.0.1:8080/hook", false)).message).toMatch(/WEBHOOK_ALLOW_LOOPBACK/);
    expect((await refusal("test", "http://10.0.0.5/hook", false)).message).not.toMatch(/WEBHOOK_ALLOW_LOOPBACK/);
  });

  it("a public address is accepted, http or https", async () => {
    await expect(checkEndpointUrl("test", "http://93.184.216.34/hook", false)).resolves.toBe("http://93.184.216.34/hook");
    await expect(checkEndpointUrl("test", "https://[2606:4700::1]/hook", false)).resolves.toBe("https://[2606:4700::1]/hook");
  });
});

describe("checkEndpointUrl in test mode with WEBHOOK_ALLOW_LOOPBACK", () => {
  it.each(LOOPBACK)("%s is accepted", async (url) => {
    await expect(checkEndpointUrl("test", url, true)).resolves.toBe(url);
  });

  it.each(NEVER)("%s is still refused", async (url) => {
    const error = await refusal("test", url, true);
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^url must reach a public or loopback address in test mode: .*is not a public address\./);
  });
});

describe("checkEndpointUrl in live mode", () => {
  it.each([...NEVER, ...LOOPBACK].map((url) => url.replace("http:", "https:")))("%s is refused whatever WEBHOOK_ALLOW_LOOPBACK says", async (url) => {
    const error = await refusal("live", url, true);
    expect(error.code).toBe("validation_error");
    expect(error.message).toMatch(/^url must reach a public address in live mode: /);
  });

  it("needs https", async () => {
    expect((await refusal("live", "http://93.184.216.34/hook", true)).message).toMatch(/https/);
  });
});
