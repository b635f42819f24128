import { createHmac, timingSafeEqual } from "node:crypto";

// The checkout-session checkout_url carries a short-lived token so an embed
// URL leaked later is useless: `<expiry unix seconds>.<HMAC(payment id, expiry)>`.

function mac(secret: string, paymentId: string, expires: number): string {
  return createHmac("sha256", secret).update(`${paymentId}.${expires}`).digest("base64url");
}

export function signEmbedToken(secret: string, paymentId: string, now: Date, ttlMs: number): string {
  const expires = Math.floor((now.getTime() + ttlMs) / 1000);
  return `${expires}.${mac(secret, paymentId, expires)}`;
}

export function verifyEmbedToken(secret: string, paymentId: string, token: string, now: Date): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(mac(secret, paymentId, expires));
  const given = Buffer.from(match[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
