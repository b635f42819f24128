import { createHmac } from "node:crypto";
import { expect, test } from "vitest";
import { PaytamiSignatureError } from "./errors.ts";
import { constructEvent } from "./webhooks.ts";

// Signed here with node:crypto, independently of the SDK's Web Crypto code.
const sign = (secret: string, t: number, body: string) => createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
const body = JSON.stringify({ id: "evt_0123456789abcdef01234567", type: "payment.succeeded", created_at: "2026-11-25T10:00:00.000Z", data: { id: "pay_1" } });
const secret = "whsec_first";
const now = () => Math.floor(Date.now() / 1000);

const refused = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (error: unknown) => (error instanceof PaytamiSignatureError ? "refused" : String(error)),
  );

test("accepts a body signed with the secret, as a string or as bytes", async () => {
  const t = now();
  const header = `t=${t},v1=${sign(secret, t, body)}`;
  expect(await constructEvent(body, header, secret)).toEqual(JSON.parse(body));
  expect(await constructEvent(new TextEncoder().encode(body), header, secret)).toEqual(JSON.parse(body));
});

test("any v1 entry may match (a rotation); other schemes are ignored", async () => {
  const t = now();
  const header = `t=${t},v0=abc,v1=${sign("whsec_new", t, body)},v1=${sign(secret, t, body)}`;
  expect(await refused(constructEvent(body, header, secret))).toBe("accepted");
  expect(await refused(constructEvent(body, header, "whsec_new"))).toBe("accepted");
  expect(await refused(constructEvent(body, header, "whsec_other"))).toBe("refused");
});

test("refuses a changed body, a wrong secret, an old or future timestamp, a malformed header", async () => {
  const t = now();
  const header = `t=${t},v1=${sign(secret, t, body)}`;
  expect(await refused(constructEvent(body.replace("pay_1", "pay_2"), header, secret))).toBe("refused");
  expect(await refused(constructEvent(body, header, `${secret}x`))).toBe("refused");
  const old = t - 301;
  expect(await refused(constructEvent(body, `t=${old},v1=${sign(secret, old, body)}`, secret))).toBe("refused");
  expect(await refused(constructEvent(body, `t=${old},v1=${sign(secret, old, body)}`, secret, 400))).toBe("accepted");
  const future = t + 301;
  expect(await refused(constructEvent(body, `t=${future},v1=${sign(secret, future, body)}`, secret))).toBe("refused");
  for (const bad of ["", `v1=${sign(secret, t, body)}`, `t=${t}`, `t=${t},v1=zz`, `t=abc,v1=${sign(secret, t, body)}`]) {
    expect(await refused(constructEvent(body, bad, secret)), bad).toBe("refused");
  }
  expect(await refused(constructEvent(body, undefined, secret))).toBe("refused");
  expect(await refused(constructEvent(body, header, ""))).toBe("refused");
});
