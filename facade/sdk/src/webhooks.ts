import { PaytamiSignatureError } from "./errors.ts";

// Verifying a delivery's Service-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw
// body>")>[,v1=…]` (one v1 per active secret while a secret is being rotated). Web Crypto only, so it
// runs wherever the SDK does.

const encoder = new TextEncoder();

function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length !== 64 || !/^[0-9a-f]+$/i.test(hex)) return undefined;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Equal without an early exit: the time taken does not tell how much of a guess was right. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Parses the header: its timestamp and every v1 signature (other schemes are ignored, as future ones must be). */
function parseHeader(header: string): { timestamp: number; signatures: Uint8Array[] } {
  let timestamp: number | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1") {
      const bytes = fromHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  if (timestamp === undefined) throw new PaytamiSignatureError("Service-Signature has no timestamp (t=…)");
  if (signatures.length === 0) throw new PaytamiSignatureError("Service-Signature has no v1 signature");
  return { timestamp, signatures };
}

/**
 * Verifies a webhook delivery and returns its event. `rawBody` must be the request body exactly as
 * received (bytes, or the string decoded from them), before any JSON parsing; `signatureHeader` is
 * the `Service-Signature` header; `secret` the endpoint's `whsec_…` secret. Refuses (throws
 * PaytamiSignatureError) a body whose signature matches no v1 entry, and a timestamp further than
 * `toleranceSeconds` from now. Deduplicate by the event's `id`: a delivery may come more than once.
 */
export async function constructEvent<E = unknown>(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
): Promise<E> {
  if (typeof signatureHeader !== "string" || signatureHeader === "") throw new PaytamiSignatureError("no Service-Signature header");
  if (typeof secret !== "string" || secret === "") throw new PaytamiSignatureError("no webhook secret given");
  const { timestamp, signatures } = parseHeader(signatureHeader);
  const now = Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > toleranceSeconds) {
    throw new PaytamiSignatureError(`Service-Signature timestamp ${timestamp} is more than ${toleranceSeconds} s from now (${now})`);
  }
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : rawBody;
  const key = await globalThis.crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, concat(encoder.encode(`${timestamp}.`), body)));
  // Every entry is compared (no early exit on a match): during a rotation either secret's entry may be the one.
  let matched = false;
  for (const signature of signatures) matched = constantTimeEqual(signature, expected) || matched;
  if (!matched) throw new PaytamiSignatureError("no v1 signature in Service-Signature matches this body and secret");
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as E;
  } catch {
    throw new PaytamiSignatureError("the signed body is not JSON");
  }
}
