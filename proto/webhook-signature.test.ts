import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { signatureHeader, verifySignature } from "./webhook-signature.ts";

const body = Buffer.from('{"id":"evt_000000000000000000000001","type":"payment.succeeded"}');

describe("Service-Signature", () => {
  test("is t=<unix>,v1=<hex HMAC-SHA256(secret, t.body)> with the secret string as the key", () => {
    const header = signatureHeader(["whsec_abc"], 1_700_000_000, body);
    const expected = createHmac("sha256", "whsec_abc").update(`1700000000.${body.toString()}`).digest("hex");
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  test("carries one v1 per secret, each verifying for its own secret", () => {
    const header = signatureHeader(["whsec_new", "whsec_old"], 1_700_000_000, body);
    expect(header.split(",")).toHaveLength(3);
    expect(verifySignature(header, body, "whsec_new", 1_700_000_000)).toBe(true);
    expect(verifySignature(header, body, "whsec_old", 1_700_000_000)).toBe(true);
    expect(verifySignature(header, body, "whsec_other", 1_700_000_000)).toBe(false);
  });

  test("fails for a changed body, a changed timestamp, or a timestamp outside the tolerance", () => {
    const header = signatureHeader(["whsec_abc"], 1_700_000_000, body);
    expect(verifySignature(header, Buffer.from(body.toString().replace("succeeded", "failed")), "whsec_abc", 1_700_000_000)).toBe(false);
    expect(verifySignature(header.replace("t=1700000000", "t=1700000001"), body, "whsec_abc", 1_700_000_000)).toBe(false);
    expect(verifySignature(header, body, "whsec_abc", 1_700_000_301)).toBe(false);
    expect(verifySignature(header, body, "whsec_abc", 1_700_000_300)).toBe(true);
  });
});
