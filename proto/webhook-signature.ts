// The Service-Signature scheme (DESIGN §4 "Webhooks"), shared by the dispatcher, `paytami listen`
// and the tests: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, one `v1=` per
// secret that signs (two during a rotation). It is Stripe's scheme, so Stripe's libraries verify it.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "Service-Signature";
export const EVENT_ID_HEADER = "Service-Event-Id";
export const WEBHOOK_USER_AGENT = "Service-Webhooks/1.0";
/** What receivers should accept, and what `verifySignature` checks by default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A signing secret: `whsec_` + 32 CSPRNG bytes in unpadded base64url (43 characters). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

function v1(secret: string, timestamp: number, body: Uint8Array): string {
  // The secret string is the key as is (not base64-decoded), as Stripe's libraries use it.
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

/** The header value for `body` signed at `timestamp` (unix seconds) with every secret in `secrets`. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: Uint8Array): string {
  if (secrets.length === 0) throw new Error("a webhook needs at least one secret to be signed");
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${v1(secret, timestamp, body)}`)].join(",");
}

/**
 * Whether `header` carries a valid v1 signature of `body` for `secret`, made within `toleranceSeconds`
 * of `now` (unix seconds). Receivers must verify over the raw body bytes, before any JSON parsing.
 */
export function verifySignature(
  header: string,
  body: Uint8Array,
  secret: string,
  now = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value) signatures.push(value);
  }
  if (timestamp === undefined || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(v1(secret, timestamp, body), "hex");
  return signatures.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
